import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// Sessions (one per signed-in device) and their rotating refresh tokens.
struct Sessions: Sendable {
    let tokens: TokenService
    let logger: Logger

    /// Opens a session for `userID` and returns its first tokens. Runs inside the user's
    /// transaction.
    func open(userID: UUID, deviceName: String, on connection: PostgresConnection) async throws -> TokenResponse {
        let sessionID = UUID()
        try await connection.query("""
            INSERT INTO sessions (user_id, id, device_name) VALUES (\(userID), \(sessionID), \(deviceName))
            """, logger: logger)
        return try await issue(userID: userID, sessionID: sessionID, on: connection)
    }

    /// A new access token and a new refresh token of the session.
    func issue(userID: UUID, sessionID: UUID, on connection: PostgresConnection) async throws -> TokenResponse {
        let refresh = RefreshToken.make(userID: userID)
        let expires = Date().addingTimeInterval(tokens.refreshLifetime)
        try await connection.query("""
            INSERT INTO refresh_tokens (user_id, token_hash, session_id, expires_at)
            VALUES (\(userID), \(RefreshToken.hash(refresh)), \(sessionID), \(expires))
            """, logger: logger)
        let access = try await tokens.accessToken(userID: userID, sessionID: sessionID)
        return TokenResponse(userID: userID, sessionID: sessionID, accessToken: access,
                             expiresIn: Int(tokens.accessLifetime), refreshToken: refresh)
    }

    enum RefreshOutcome: Sendable {
        case rotated(TokenResponse)
        /// The token was already used: its session is now revoked.
        case reused
        case invalid
    }

    /// Exchanges a refresh token for new tokens. A token works once: presenting it again
    /// (a stolen copy, or a replay) revokes the whole session. The caller must let the
    /// transaction commit even for `.reused`, so the revocation sticks.
    func refresh(userID: UUID, hash: Data, on connection: PostgresConnection) async throws -> RefreshOutcome {
        let claimed = try await connection.query("""
            UPDATE refresh_tokens t SET used_at = now()
            FROM sessions s
            WHERE t.token_hash = \(hash) AND t.used_at IS NULL AND t.expires_at > now()
              AND s.user_id = t.user_id AND s.id = t.session_id AND s.revoked_at IS NULL
            RETURNING t.session_id
            """, logger: logger)
        for try await sessionID in claimed.decode(UUID.self) {
            try await connection.query("UPDATE sessions SET last_used_at = now() WHERE id = \(sessionID)", logger: logger)
            return .rotated(try await issue(userID: userID, sessionID: sessionID, on: connection))
        }
        let used = try await connection.query("""
            SELECT session_id FROM refresh_tokens WHERE token_hash = \(hash) AND used_at IS NOT NULL
            """, logger: logger)
        for try await sessionID in used.decode(UUID.self) {
            try await revoke(sessionID: sessionID, on: connection)
            logger.warning("refresh token reused; session revoked", metadata: ["session": "\(sessionID)"])
            return .reused
        }
        return .invalid
    }

    /// Ends a session: its refresh tokens are deleted and its access tokens stop working.
    /// Returns false if the user has no such live session.
    @discardableResult
    func revoke(sessionID: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query("""
            UPDATE sessions SET revoked_at = now() WHERE id = \(sessionID) AND revoked_at IS NULL RETURNING id
            """, logger: logger)
        var found = false
        for try await _ in rows.decode(UUID.self) { found = true }
        try await connection.query("DELETE FROM refresh_tokens WHERE session_id = \(sessionID)", logger: logger)
        return found
    }

    func list(current: UUID, on connection: PostgresConnection) async throws -> [DeviceSession] {
        let rows = try await connection.query("""
            SELECT id, device_name, created_at, last_used_at FROM sessions WHERE revoked_at IS NULL ORDER BY created_at
            """, logger: logger)
        var devices: [DeviceSession] = []
        for try await (id, name, created, used) in rows.decode((UUID, String, Date, Date).self) {
            devices.append(DeviceSession(id: id, deviceName: name, createdAt: created, lastUsedAt: used, current: id == current))
        }
        return devices
    }
}
