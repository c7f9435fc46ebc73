import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// Sessions (one per signed-in device) and their rotating refresh tokens: the rules; the
/// rows are the `SessionRepository`'s.
struct Sessions: Sendable {
    let tokens: TokenService
    let repository: SessionRepository

    init(tokens: TokenService, logger: Logger) {
        self.tokens = tokens
        repository = SessionRepository(logger: logger)
    }

    /// The same sessions logging to `logger` (a request's, which carries its id).
    func logging(to logger: Logger) -> Sessions {
        Sessions(tokens: tokens, logger: logger)
    }

    /// Opens a session for `userID` and returns its first tokens. Runs inside the user's
    /// transaction.
    func open(userID: UUID, deviceName: String, on connection: PostgresConnection) async throws -> TokenResponse {
        let sessionID = UUID()
        try await repository.insertSession(userID: userID, sessionID: sessionID, deviceName: deviceName, on: connection)
        return try await issue(userID: userID, sessionID: sessionID, on: connection)
    }

    /// A new access token and a new refresh token of the session.
    func issue(userID: UUID, sessionID: UUID, on connection: PostgresConnection) async throws -> TokenResponse {
        let refresh = RefreshToken.make(userID: userID)
        try await repository.insertRefreshToken(
            userID: userID,
            hash: RefreshToken.hash(refresh),
            sessionID: sessionID,
            expires: Date().addingTimeInterval(tokens.refreshLifetime),
            on: connection
        )
        let access = try await tokens.accessToken(userID: userID, sessionID: sessionID)
        return TokenResponse(
            userID: userID,
            sessionID: sessionID,
            accessToken: access,
            expiresIn: Int(tokens.accessLifetime),
            refreshToken: refresh
        )
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
        if let sessionID = try await repository.claimRefreshToken(hash: hash, on: connection) {
            return .rotated(try await issue(userID: userID, sessionID: sessionID, on: connection))
        }
        if let sessionID = try await repository.sessionOfUsedToken(hash: hash, on: connection) {
            try await revoke(sessionID: sessionID, on: connection)
            repository.logger.warning("refresh token reused; session revoked", metadata: ["session": "\(sessionID)"])
            return .reused
        }
        return .invalid
    }

    /// Ends a session: its refresh tokens are deleted and its access tokens stop working.
    /// Returns false if the user has no such live session.
    @discardableResult
    func revoke(sessionID: UUID, on connection: PostgresConnection) async throws -> Bool {
        try await repository.revoke(sessionID: sessionID, on: connection)
    }

    func list(current: UUID, on connection: PostgresConnection) async throws -> [DeviceSession] {
        try await repository.list(current: current, on: connection)
    }
}
