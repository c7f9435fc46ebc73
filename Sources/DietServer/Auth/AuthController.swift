import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// Sign-up, sign-in (password or Apple), token refresh and sign-out.
struct AuthController: Sendable {
    let database: ServerDatabase
    let sessions: Sessions
    let passwords: Passwords
    let policy: RateLimitPolicy
    let logger: Logger

    private var signInLimiter: AttemptLimiter { AttemptLimiter(refusal: APIError.tooManyAttempts(retryAfter:)) }
    private var signupLimiter: AttemptLimiter { AttemptLimiter(refusal: APIError.tooManySignups(retryAfter:)) }

    func addRoutes(to router: Router<ServerContext>, authenticated: some RouterMiddleware<ServerContext>) {
        router.post(RouterPath(AccountPaths.signup), use: signup)
        router.post(RouterPath(AccountPaths.login), use: login)
        router.post(RouterPath(AccountPaths.apple), use: apple)
        router.post(RouterPath(AccountPaths.refresh), use: refresh)
        router.group(RouterPath(AccountPaths.logout)).add(middleware: authenticated).post(use: logout)
    }

    /// Sign-ups count per address (each one, not just failures); the bcrypt hash waits behind
    /// sign-ins and is refused with 503 when too many wait.
    @Sendable func signup(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(PasswordCredentials.self, context: context)
        let email = try Credentials.email(body.email)
        try Credentials.newPassword(body.password)
        let deviceName = try Credentials.deviceName(body.deviceName)
        let attempt = try await database.withoutUser { [signupLimiter, policy, logger] connection in
            try await signupLimiter.reserve(policy.signupLimits(address: context.clientAddress), account: nil, on: connection, logger: logger)
        }
        let hash: String
        do {
            hash = try await passwords.hash(body.password)
        } catch let error as APIError {
            // Refused for being busy, the sign-up did not happen: it does not count.
            try await database.withoutUser { [signupLimiter, logger] connection in
                try await signupLimiter.takeBack(attempt, on: connection, logger: logger)
            }
            throw error
        }
        let userID = UUID()
        do {
            let tokens = try await database.withUser(userID) { [sessions, logger] connection in
                try await connection.query("""
                    INSERT INTO users (id, email, password_hash) VALUES (\(userID), \(email), \(hash))
                    """, logger: logger)
                return try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
            }
            return JSONBody(tokens, status: .created)
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw APIError(status: .conflict, code: "email_taken",
                           message: "An account with this email already exists; sign in instead.")
        }
    }

    /// Every attempt is reserved against its limits before the password is checked (see
    /// `AttemptLimiter`); a right password takes the reservation back and clears the failures
    /// of this account from this address.
    @Sendable func login(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(PasswordCredentials.self, context: context)
        try Credentials.refuseControlCharacters(in: body.email, field: "email")
        try Credentials.presentedPassword(body.password)
        let email = body.email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let deviceName = try Credentials.deviceName(body.deviceName)
        let limits = policy.signInLimits(email: email, address: context.clientAddress)
        let (attempt, found) = try await database.withoutUser { [signInLimiter, logger] connection in
            let attempt = try await signInLimiter.reserve(limits, account: AttemptLimiter.Key.account(email), on: connection, logger: logger)
            let rows = try await connection.query("SELECT id, password_hash FROM auth_user_by_email(\(email))", logger: logger)
            for try await (id, hash) in rows.decode((UUID, String?).self) { return (attempt, (id, hash) as (UUID, String?)?) }
            return (attempt, nil)
        }
        let matches: Bool
        do {
            matches = try await passwords.verify(body.password, hash: found?.1)
        } catch {
            try await database.withoutUser { [signInLimiter, logger] connection in
                try await signInLimiter.takeBack(attempt, on: connection, logger: logger)
            }
            throw error
        }
        guard matches, let userID = found?.0 else { throw APIError.badCredentials }
        try await database.withoutUser { [signInLimiter, logger] connection in
            try await signInLimiter.takeBack(attempt, on: connection, logger: logger)
            try await signInLimiter.forget(key: limits[0].key, on: connection, logger: logger)
        }
        let tokens = try await database.withUser(userID) { [sessions] connection in
            try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
        }
        return JSONBody(tokens)
    }

    @Sendable func apple(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        guard sessions.tokens.appleSignInEnabled else {
            throw APIError(status: .serviceUnavailable, code: "apple_disabled", message: "Sign in with Apple is not configured on this server.")
        }
        let body = try await request.decodeJSON(AppleSignIn.self, context: context)
        let deviceName = try Credentials.deviceName(body.deviceName)
        guard let identity = await sessions.tokens.verifyAppleToken(body.identityToken) else {
            throw APIError(status: .unauthorized, code: "invalid_identity_token", message: "The Apple identity token is not valid.")
        }
        let subject = identity.subject.value
        let email = identity.email.map { $0.lowercased() }
        let existing = try await database.withoutUser { [logger] connection in
            let rows = try await connection.query("SELECT auth_user_by_apple(\(subject))", logger: logger)
            for try await id in rows.decode(UUID?.self) { return id }
            return nil
        }
        let userID = existing ?? UUID()
        let tokens = try await database.withUser(userID) { [sessions, logger] connection in
            if existing == nil {
                // An email already used by a password account is not linked: that would let
                // whoever controls the Apple ID into it.
                var storedEmail = email
                if let email {
                    let taken = try await connection.query("SELECT auth_email_taken(\(email))", logger: logger)
                    for try await isTaken in taken.decode(Bool.self) where isTaken { storedEmail = nil }
                }
                try await connection.query("""
                    INSERT INTO users (id, email, apple_subject) VALUES (\(userID), \(storedEmail), \(subject))
                    """, logger: logger)
            }
            return try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
        }
        return JSONBody(tokens, status: existing == nil ? .created : .ok)
    }

    @Sendable func refresh(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(RefreshRequest.self, context: context)
        guard let (userID, hash) = RefreshToken.parse(body.refreshToken) else { throw APIError.badRefreshToken }
        let outcome = try await database.withUser(userID) { [sessions] connection in
            try await sessions.refresh(userID: userID, hash: hash, on: connection)
        }
        guard case let .rotated(tokens) = outcome else { throw APIError.badRefreshToken }
        return JSONBody(tokens)
    }

    @Sendable func logout(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let caller = try context.requireCaller()
        _ = try await database.withCaller(caller) { [sessions] connection in
            try await sessions.revoke(sessionID: caller.sessionID, on: connection)
        }
        return .noContent
    }
}
