import Crypto
import Foundation
import Logging
import PostgresNIO

/// The WHOOP tables (`whoop_connections`, `whoop_states`): all SQL of the WHOOP endpoints and
/// the refresh job except the synced rows (`WhoopRows`). Methods that take a connection run
/// in the caller's transaction under row-level security; the three lookups without a user go
/// through the migration's SECURITY DEFINER functions and return ids only.
struct WhoopRepository: Sendable {
    /// A connection attempt lives this long.
    static let stateLifetime: TimeInterval = 10 * 60

    /// What the callback's state turned out to be.
    enum StateCheck: Equatable {
        case valid
        case expired
        case used
    }

    /// The calling user's connection.
    struct Connection: Sendable {
        let whoopUserID: Int64
        let sealedTokens: Data
        let expiresAt: Date
        let connectedAt: Date
        let lastFetchAt: Date?
    }

    let logger: Logger

    /// SHA-256 of a state: only the hash is stored, so a database reader cannot finish
    /// someone's connection attempt.
    static func hash(state: String) -> Data {
        Data(SHA256.hash(data: Data(state.utf8)))
    }

    /// Records a new attempt of the calling user, and forgets their attempts that have expired.
    func saveState(_ state: String, expiresAt: Date, userID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM whoop_states WHERE expires_at < now()", logger: logger)
        try await connection.query(
            """
            INSERT INTO whoop_states (user_id, state_hash, expires_at) VALUES (\(userID), \(Self.hash(state: state)), \(expiresAt))
            """,
            logger: logger
        )
    }

    /// Whose attempt `state` is, before any user is known; nil for a state never given out.
    func user(forState state: String, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query("SELECT whoop_user_by_state(\(Self.hash(state: state)))", logger: logger)
        for try await id in rows.decode(UUID?.self) { return id }
        return nil
    }

    /// Uses the calling user's `state` up (once only) and says whether it was still good.
    func use(state: String, on connection: PostgresConnection) async throws -> StateCheck {
        let rows = try await connection.query(
            """
            UPDATE whoop_states SET used_at = now() WHERE state_hash = \(Self.hash(state: state)) AND used_at IS NULL
            RETURNING expires_at > now()
            """,
            logger: logger
        )
        for try await fresh in rows.decode(Bool.self) { return fresh ? .valid : .expired }
        return .used
    }

    /// Stores (or replaces) the calling user's connection.
    func saveConnection(
        userID: UUID,
        whoopUserID: Int64,
        sealedTokens: Data,
        expiresAt: Date,
        on connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            INSERT INTO whoop_connections (user_id, whoop_user_id, tokens, expires_at)
            VALUES (\(userID), \(whoopUserID), \(sealedTokens), \(expiresAt))
            ON CONFLICT (user_id) DO UPDATE SET whoop_user_id = excluded.whoop_user_id, tokens = excluded.tokens,
              expires_at = excluded.expires_at, connected_at = now(), refreshed_at = NULL, last_fetch_at = NULL
            """,
            logger: logger
        )
    }

    /// The calling user's connection, if any. `lock` holds the row until the transaction ends.
    func connection(on connection: PostgresConnection, lock: Bool = false) async throws -> Connection? {
        let rows = try await connection.query(
            lock
                ? """
                SELECT whoop_user_id, tokens, expires_at, connected_at, last_fetch_at FROM whoop_connections FOR UPDATE
                """
                : """
                SELECT whoop_user_id, tokens, expires_at, connected_at, last_fetch_at FROM whoop_connections
                """,
            logger: logger
        )
        for try await (member, tokens, expires, connected, fetched) in rows.decode((Int64, Data, Date, Date, Date?).self) {
            return Connection(
                whoopUserID: member,
                sealedTokens: tokens,
                expiresAt: expires,
                connectedAt: connected,
                lastFetchAt: fetched
            )
        }
        return nil
    }

    /// New tokens after a refresh.
    func updateTokens(_ sealedTokens: Data, expiresAt: Date, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            UPDATE whoop_connections SET tokens = \(sealedTokens), expires_at = \(expiresAt), refreshed_at = now()
            """,
            logger: logger
        )
    }

    func markFetched(on connection: PostgresConnection) async throws {
        try await connection.query("UPDATE whoop_connections SET last_fetch_at = now()", logger: logger)
    }

    /// Forgets the calling user's tokens and open attempts.
    func deleteConnection(on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM whoop_connections", logger: logger)
        try await connection.query("DELETE FROM whoop_states", logger: logger)
    }

    /// The user WHOOP's member `whoopUserID` is connected to, before any user is known.
    func user(forMember whoopUserID: Int64, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query("SELECT whoop_user_by_member(\(whoopUserID))", logger: logger)
        for try await id in rows.decode(UUID?.self) { return id }
        return nil
    }

    /// The users whose access token expires before `before`, soonest first.
    func usersDue(before: Date, on connection: PostgresConnection) async throws -> [UUID] {
        var ids: [UUID] = []
        for try await id in try await connection.query("SELECT whoop_users_due(\(before))", logger: logger).decode(UUID.self) {
            ids.append(id)
        }
        return ids
    }

    /// Takes the user's refresh lock for this transaction if no other instance holds it.
    func tryRefreshLock(userID: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            """
            SELECT pg_try_advisory_xact_lock(hashtextextended('whoop-refresh:' || \(userID.uuidString), 0))
            """,
            logger: logger
        )
        for try await taken in rows.decode(Bool.self) { return taken }
        return false
    }
}
