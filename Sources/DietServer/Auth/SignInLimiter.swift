import Crypto
import Foundation
import PostgresNIO

/// Counts failed sign-ins per account and per address in PostgreSQL (so every server
/// instance sees the same counts) and refuses new attempts over the limit until the oldest
/// failure in the window ages out.
struct SignInLimiter: Sendable {
    let policy: RateLimitPolicy

    static func accountKey(_ email: String) -> Data { key("account:" + email.lowercased()) }
    static func addressKey(_ address: String) -> Data { key("address:" + address) }

    private static func key(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }

    /// Throws 429 when either key is over its limit.
    func check(account: Data, address: Data, on connection: PostgresConnection, logger: Logger) async throws {
        let window = policy.window
        for (key, limit) in [(account, policy.failuresPerAccount), (address, policy.failuresPerAddress)] {
            let rows = try await connection.query("""
                SELECT count(*)::int8, COALESCE(EXTRACT(EPOCH FROM min(at) + make_interval(secs => \(window)) - now()), 0)::float8
                FROM auth_failures WHERE key_hash = \(key) AND at > now() - make_interval(secs => \(window))
                """, logger: logger)
            for try await (count, secondsLeft) in rows.decode((Int64, Double).self) where count >= limit {
                throw APIError.tooManyAttempts(retryAfter: max(1, Int(secondsLeft.rounded(.up))))
            }
        }
    }

    func recordFailure(account: Data, address: Data, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("INSERT INTO auth_failures (key_hash) VALUES (\(account)), (\(address))", logger: logger)
        // Old failures are kept no longer than the window.
        try await connection.query("DELETE FROM auth_failures WHERE at < now() - make_interval(secs => \(policy.window))", logger: logger)
    }

    func recordSuccess(account: Data, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM auth_failures WHERE key_hash = \(account)", logger: logger)
    }
}
