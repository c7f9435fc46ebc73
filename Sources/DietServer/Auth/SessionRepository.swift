import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// The `sessions` (one per signed-in device) and `refresh_tokens` tables. Every method runs
/// in the caller's transaction, under the user's row-level security.
struct SessionRepository: Sendable {
    let logger: Logger

    func insertSession(userID: UUID, sessionID: UUID, deviceName: String, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO sessions (user_id, id, device_name) VALUES (\(userID), \(sessionID), \(deviceName))
            """,
            logger: logger
        )
    }

    /// Stores the hash of a new refresh token of the session.
    func insertRefreshToken(userID: UUID, hash: Data, sessionID: UUID, expires: Date, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO refresh_tokens (user_id, token_hash, session_id, expires_at)
            VALUES (\(userID), \(hash), \(sessionID), \(expires))
            """,
            logger: logger
        )
    }

    /// Marks an unused, unexpired token of a live session used and touches the session;
    /// returns the session, or nil when no such token is there.
    func claimRefreshToken(hash: Data, on connection: PostgresConnection) async throws -> UUID? {
        let claimed = try await connection.query(
            """
            UPDATE refresh_tokens t SET used_at = now()
            FROM sessions s
            WHERE t.token_hash = \(hash) AND t.used_at IS NULL AND t.expires_at > now()
              AND s.user_id = t.user_id AND s.id = t.session_id AND s.revoked_at IS NULL
            RETURNING t.session_id
            """,
            logger: logger
        )
        for try await sessionID in claimed.decode(UUID.self) {
            try await connection.query("UPDATE sessions SET last_used_at = now() WHERE id = \(sessionID)", logger: logger)
            return sessionID
        }
        return nil
    }

    /// The session of a token that was already used, if it is one.
    func sessionOfUsedToken(hash: Data, on connection: PostgresConnection) async throws -> UUID? {
        let used = try await connection.query(
            """
            SELECT session_id FROM refresh_tokens WHERE token_hash = \(hash) AND used_at IS NOT NULL
            """,
            logger: logger
        )
        for try await sessionID in used.decode(UUID.self) { return sessionID }
        return nil
    }

    /// Marks the session revoked and deletes its refresh tokens; false if it was not live.
    func revoke(sessionID: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            """
            UPDATE sessions SET revoked_at = now() WHERE id = \(sessionID) AND revoked_at IS NULL RETURNING id
            """,
            logger: logger
        )
        var found = false
        for try await _ in rows.decode(UUID.self) { found = true }
        try await connection.query("DELETE FROM refresh_tokens WHERE session_id = \(sessionID)", logger: logger)
        return found
    }

    /// The user's live sessions, oldest first.
    func list(current: UUID, on connection: PostgresConnection) async throws -> [DeviceSession] {
        let rows = try await connection.query(
            """
            SELECT id, device_name, created_at, last_used_at FROM sessions WHERE revoked_at IS NULL ORDER BY created_at
            """,
            logger: logger
        )
        var devices: [DeviceSession] = []
        for try await (id, name, created, used) in rows.decode((UUID, String, Date, Date).self) {
            devices.append(DeviceSession(id: id, deviceName: name, createdAt: created, lastUsedAt: used, current: id == current))
        }
        return devices
    }

    /// Deletes every session and refresh token of the user (account deletion).
    func deleteAll(userID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM refresh_tokens WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM sessions WHERE user_id = \(userID)", logger: logger)
    }
}
