import Foundation

/// At most `slots` pieces of heavy work (bcrypt) at once. Urgent work (a sign-in) is served
/// before ordinary work (a sign-up), so a flood of sign-ups cannot keep an account's owner
/// out. Ordinary work finding `maxQueued` others waiting is refused at once; any work still
/// waiting after `maxWait` is refused then. A refusal is `WorkGate.Busy`.
actor WorkGate {
    enum Priority: Sendable {
        case urgent, ordinary
    }

    struct Busy: Error {}

    private struct Waiter {
        let id: UInt64
        let priority: Priority
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let slots: Int
    private let maxQueued: Int
    private let maxWait: Duration
    private var running = 0
    private var waiting: [Waiter] = []
    private var nextID: UInt64 = 0

    init(slots: Int, maxQueued: Int, maxWait: TimeInterval) {
        self.slots = max(1, slots)
        self.maxQueued = max(0, maxQueued)
        self.maxWait = .milliseconds(Int64(maxWait * 1000))
    }

    /// Runs `work` in a slot, waiting for one first if need be.
    func run<T: Sendable>(_ priority: Priority, _ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire(priority)
        defer { release() }
        return try await work()
    }

    private func acquire(_ priority: Priority) async throws {
        if running < slots, waiting.isEmpty {
            running += 1
            return
        }
        if priority == .ordinary, waiting.count(where: { $0.priority == .ordinary }) >= maxQueued { throw Busy() }
        nextID += 1
        let id = nextID
        let timeout = maxWait
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let waiter = Waiter(id: id, priority: priority, continuation: continuation)
            // Urgent waiters go before every ordinary one, after earlier urgent ones.
            let index = priority == .urgent ? (waiting.firstIndex { $0.priority == .ordinary } ?? waiting.endIndex) : waiting.endIndex
            waiting.insert(waiter, at: index)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(id)
            }
        }
    }

    /// Hands the slot to the next waiter, or frees it.
    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }

    private func expire(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: Busy())
    }
}
