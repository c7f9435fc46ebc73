import Foundation
import Logging
import PostgresNIO

/// The `auth_attempts` table: sign-in and sign-up attempts under hashed keys. Runs in a
/// transaction without a user (the attempts precede knowing who signs in).
struct AttemptRepository: Sendable {
    let logger: Logger

    /// Takes transaction-scoped advisory locks, in the order given.
    func lock(_ ids: [Int64], on connection: PostgresConnection) async throws {
        for id in ids {
            try await connection.query("SELECT pg_advisory_xact_lock(\(id))", logger: logger)
        }
    }

    /// For each key (by its index), the attempts within its window and the seconds until the
    /// oldest of them leaves it.
    func counts(
        keys: [Data],
        windows: [TimeInterval],
        on connection: PostgresConnection
    ) async throws
        -> [(index: Int, count: Int, secondsLeft: Double)]
    {
        let rows = try await connection.query(
            """
            SELECT k.ordinal::int8, count(a.at)::int8,
                   COALESCE(EXTRACT(EPOCH FROM min(a.at) + make_interval(secs => k.span) - now()), 0)::float8
            FROM unnest(\(keys.map { ByteBuffer(bytes: $0) })::bytea[], \(windows)::float8[]) WITH ORDINALITY AS k (key_hash, span, ordinal)
            LEFT JOIN auth_attempts a ON a.key_hash = k.key_hash AND a.at > now() - make_interval(secs => k.span)
            GROUP BY k.ordinal, k.span
            """,
            logger: logger
        )
        var counts: [(index: Int, count: Int, secondsLeft: Double)] = []
        for try await (ordinal, count, secondsLeft) in rows.decode((Int64, Int64, Double).self) {
            counts.append((Int(ordinal) - 1, Int(count), secondsLeft))
        }
        return counts
    }

    /// Records one attempt under every key; `account` tags the rows for account deletion.
    func record(_ attempt: UUID, keys: [Data], account: Data?, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO auth_attempts (key_hash, attempt, account)
            SELECT k, \(attempt), \(account) FROM unnest(\(keys.map { ByteBuffer(bytes: $0) })::bytea[]) AS k
            """,
            logger: logger
        )
    }

    /// Deletes attempts older than `seconds`.
    func prune(olderThan seconds: TimeInterval, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM auth_attempts WHERE at < now() - make_interval(secs => \(seconds))", logger: logger)
    }

    func delete(attempt: UUID, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM auth_attempts WHERE attempt = \(attempt)", logger: logger)
    }

    func delete(key: Data, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM auth_attempts WHERE key_hash = \(key)", logger: logger)
    }

    /// Deletes the attempts tagged with an account's key.
    func delete(account: Data, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM auth_attempts WHERE account = \(account)", logger: logger)
    }
}
