import Crypto
import Foundation
import PostgresNIO

/// Counts sign-in and sign-up attempts in PostgreSQL (so every server instance sees the same
/// counts) under keys such as "this account from this address", and refuses an attempt while
/// any of its keys is at its limit, until the oldest attempt in the window ages out.
///
/// An attempt is counted before its password is checked (it is reserved), under
/// transaction-scoped advisory locks on its keys, so parallel attempts cannot all pass one
/// check before any of them is recorded. A successful sign-in takes its reservation back.
struct AttemptLimiter: Sendable {
    /// One limit an attempt counts against.
    struct Limit: Sendable {
        let key: Data
        let maximum: Int
        let window: TimeInterval
    }

    /// Keys are SHA-256 hashes: neither emails nor addresses are stored in clear.
    enum Key {
        static func account(_ email: String) -> Data { hash("account:" + email.lowercased()) }
        static func address(_ address: String) -> Data { hash("address:" + address) }
        static func accountAndAddress(_ email: String, _ address: String) -> Data { hash("pair:" + email.lowercased() + "\n" + address) }
        static func signups(from address: String) -> Data { hash("signup:" + address) }

        private static func hash(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }
    }

    /// What to tell the caller who is over a limit.
    let refusal: @Sendable (_ retryAfter: Int) -> APIError

    /// Records an attempt against every limit, or throws the refusal (429) when one is used
    /// up. `account` tags the rows so deleting the account deletes them. Returns the attempt's
    /// id for `takeBack`.
    func reserve(_ limits: [Limit], account: Data?, on connection: PostgresConnection, logger: Logger) async throws -> UUID {
        let repository = AttemptRepository(logger: logger)
        // Locks in one order everywhere, so two attempts sharing keys cannot deadlock.
        try await repository.lock(Set(limits.map { Self.lockID($0.key) }).sorted(), on: connection)
        let keys = limits.map(\.key)
        let windows = limits.map(\.window)
        for (index, count, secondsLeft) in try await repository.counts(keys: keys, windows: windows, on: connection)
        where count >= limits[index].maximum {
            throw refusal(max(1, Int(secondsLeft.rounded(.up))))
        }
        let attempt = UUID()
        try await repository.record(attempt, keys: keys, account: account, on: connection)
        // Attempts are kept no longer than the longest window.
        try await repository.prune(olderThan: windows.max() ?? 0, on: connection)
        return attempt
    }

    /// Removes an attempt that turned out not to count (a right password, a busy server).
    func takeBack(_ attempt: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await AttemptRepository(logger: logger).delete(attempt: attempt, on: connection)
    }

    /// Forgets every attempt under `key` (the owner signed in from that address).
    func forget(key: Data, on connection: PostgresConnection, logger: Logger) async throws {
        try await AttemptRepository(logger: logger).delete(key: key, on: connection)
    }

    /// The advisory lock of a key: its first 8 bytes.
    static func lockID(_ key: Data) -> Int64 {
        key.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}

extension RateLimitPolicy {
    /// The limits a sign-in counts against: the account from this address, the address, and
    /// the account from anywhere (generous: only a last line against a distributed guesser).
    func signInLimits(email: String, address: String) -> [AttemptLimiter.Limit] {
        [
            .init(key: AttemptLimiter.Key.accountAndAddress(email, address), maximum: failuresPerAccountAndAddress, window: window),
            .init(key: AttemptLimiter.Key.address(address), maximum: failuresPerAddress, window: window),
            .init(key: AttemptLimiter.Key.account(email), maximum: failuresPerAccount, window: window),
        ]
    }

    func signupLimits(address: String) -> [AttemptLimiter.Limit] {
        [.init(key: AttemptLimiter.Key.signups(from: address), maximum: signupsPerAddress, window: signupWindow)]
    }
}
