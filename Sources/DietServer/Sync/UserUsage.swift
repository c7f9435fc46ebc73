import Foundation
import Logging
import PostgresNIO

/// A user's row of `user_usage`: the last sequence number, the stored bytes and the bytes
/// pushed in the current minute. Read and written inside the push transaction, under the
/// user's advisory lock.
struct UserUsage: Sendable {
    static let rateWindow: Double = 60

    let lastSeq: Int64
    let storedBytes: Int64
    /// Seconds since the current rate window began.
    let windowAge: Double
    let windowBytes: Int64

    /// A window older than a minute is over: the push starts a new one.
    var windowIsOver: Bool { windowAge >= Self.rateWindow }

    /// The calling transaction's user (zeros for a user who never pushed).
    static func load(on connection: PostgresConnection, logger: Logger) async throws -> UserUsage {
        let rows = try await connection.query("""
            SELECT last_seq, stored_bytes, EXTRACT(EPOCH FROM now() - window_start)::float8, window_bytes
            FROM user_usage WHERE user_id = app_user_id()
            """, logger: logger)
        for try await (seq, stored, age, bytes) in rows.decode((Int64, Int64, Double, Int64).self) {
            return UserUsage(lastSeq: seq, storedBytes: stored, windowAge: age, windowBytes: bytes)
        }
        return UserUsage(lastSeq: 0, storedBytes: 0, windowAge: rateWindow, windowBytes: 0)
    }

    /// Throws 429 when `pushed` more bytes would exceed the rate of this minute (a first push
    /// in a window always passes, so no single push is refused for ever), and 413 when a push
    /// that grows the stored bytes by `growth` would pass the quota (one that frees space
    /// always passes).
    func check(pushing pushed: Int64, growth: Int64, quota: QuotaPolicy) throws {
        let windowBytes = windowIsOver ? 0 : self.windowBytes
        if windowBytes > 0, windowBytes + pushed > quota.pushBytesPerMinute {
            let wait = max(1, Int((Self.rateWindow - windowAge).rounded(.up)))
            throw APIError(status: .tooManyRequests, code: "push_rate_limited",
                           message: "This account pushed \(Self.shown(windowBytes)) in the last minute; at most \(Self.shown(quota.pushBytesPerMinute)) a minute are accepted. Try again in \(wait) seconds.",
                           headers: [.retryAfter: String(wait)])
        }
        if growth > 0, storedBytes + growth > quota.storedBytes {
            throw APIError(status: .contentTooLarge, code: "quota_exceeded",
                           message: "This account stores \(Self.shown(storedBytes)) of the \(Self.shown(quota.storedBytes)) allowed; this push would add \(Self.shown(growth)). Delete data you no longer need to sync more.")
        }
    }

    /// Records a push: the new last sequence number, the change in stored bytes, the bytes pushed.
    func save(userID: UUID, lastSeq: Int64, growth: Int64, pushed: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        let reset = windowIsOver
        try await connection.query("""
            INSERT INTO user_usage AS u (user_id, last_seq, stored_bytes, window_start, window_bytes)
            VALUES (\(userID), \(lastSeq), \(max(0, growth)), now(), \(pushed))
            ON CONFLICT (user_id) DO UPDATE SET
              last_seq = excluded.last_seq,
              stored_bytes = GREATEST(0, u.stored_bytes + \(growth)),
              window_start = CASE WHEN \(reset) THEN now() ELSE u.window_start END,
              window_bytes = CASE WHEN \(reset) THEN \(pushed) ELSE u.window_bytes + \(pushed) END
            """, logger: logger)
    }

    /// Bytes as people read them: "812 bytes", "3.4 KB", "100.0 MB".
    static func shown(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }
}
