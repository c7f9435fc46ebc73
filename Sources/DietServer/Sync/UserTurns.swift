import Foundation

/// At most `width` pushes of one user hold a database connection at once on this instance; the
/// others wait in memory, first come first served. PostgreSQL serialises a user's pushes anyway
/// (the user's write lock), but a push waiting there holds one of the few connections: a user
/// pushing from many devices at once could hold them all while other users' pushes waited for a
/// connection. Two is the right width: one push runs while the next waits for the lock in
/// PostgreSQL, which hands it over the moment the first commits (with one, each handover waited
/// for a round trip through this process, and 50 devices of 10 users got 1,648 pushes/s
/// instead of 1,918). Across instances the database lock still decides.
actor UserTurns {
    private struct Line {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let width: Int
    private var lines: [UUID: Line] = [:]

    init(width: Int = 2) {
        self.width = max(1, width)
    }

    /// Runs `body` when the user has a free place, and frees it when `body` ends (also on a
    /// throw). A task cancelled while waiting still waits for its place; `body` then sees the
    /// cancellation.
    nonisolated func withTurn<Result: Sendable>(of user: UUID, _ body: @Sendable () async throws -> Result) async throws -> Result {
        await begin(user)
        do {
            let result = try await body()
            await end(user)
            return result
        } catch {
            await end(user)
            throw error
        }
    }

    /// How many of the user's pushes run or wait (for tests).
    func queued(of user: UUID) -> Int {
        lines[user].map { $0.running + $0.waiting.count } ?? 0
    }

    private func begin(_ user: UUID) async {
        var line = lines[user] ?? Line()
        guard line.running >= width else {
            line.running += 1
            lines[user] = line
            return
        }
        await withCheckedContinuation { continuation in
            line.waiting.append(continuation)
            lines[user] = line
        }
    }

    private func end(_ user: UUID) {
        guard var line = lines[user] else { return }
        if line.waiting.isEmpty {
            line.running -= 1
            lines[user] = line.running == 0 ? nil : line
        } else {
            // The place passes straight to the oldest waiter.
            let next = line.waiting.removeFirst()
            lines[user] = line
            next.resume()
        }
    }
}
