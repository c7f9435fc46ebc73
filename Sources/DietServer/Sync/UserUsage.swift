import Foundation

/// A user's row of `user_usage`: the last sequence number, the stored bytes and the bytes
/// pushed in the current minute, as the push statement read them under the user's advisory
/// lock (`PushStatement` reads, checks and writes them in SQL; `check` says why it refused).
struct UserUsage: Sendable {
    static let rateWindow: Double = 60

    let lastSeq: Int64
    let storedBytes: Int64
    /// Seconds since the current rate window began.
    let windowAge: Double
    let windowBytes: Int64

    /// A window older than a minute is over: the push starts a new one.
    var windowIsOver: Bool { windowAge >= Self.rateWindow }

    /// Throws 429 when `pushed` more bytes would exceed the rate of this minute (a first push
    /// in a window always passes, so no single push is refused for ever), and 413 when a push
    /// that grows the stored bytes by `growth` would pass the quota (one that frees space
    /// always passes).
    func check(pushing pushed: Int64, growth: Int64, quota: QuotaPolicy) throws {
        let windowBytes = windowIsOver ? 0 : self.windowBytes
        if windowBytes > 0, windowBytes + pushed > quota.pushBytesPerMinute {
            let wait = max(1, Int((Self.rateWindow - windowAge).rounded(.up)))
            throw APIError(
                status: .tooManyRequests,
                code: "push_rate_limited",
                message:
                    "This account pushed \(Self.shown(windowBytes)) in the last minute; at most \(Self.shown(quota.pushBytesPerMinute)) a minute are accepted. Try again in \(wait) seconds.",
                headers: [.retryAfter: String(wait)]
            )
        }
        if growth > 0, storedBytes + growth > quota.storedBytes {
            throw APIError(
                status: .contentTooLarge,
                code: "quota_exceeded",
                message:
                    "This account stores \(Self.shown(storedBytes)) of the \(Self.shown(quota.storedBytes)) allowed; this push would add \(Self.shown(growth)). Delete data you no longer need to sync more."
            )
        }
    }

    /// Bytes as people read them: "812 bytes", "3.4 KB", "100.0 MB".
    static func shown(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }
}
