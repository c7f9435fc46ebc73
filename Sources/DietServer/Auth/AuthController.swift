import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// Sign-up, sign-in (password or Apple), token refresh and sign-out.
struct AuthController: PerRequestLogging {
    let database: ServerDatabase
    let sessions: Sessions
    let passwords: Passwords
    let policy: RateLimitPolicy
    let logger: Logger

    private var signInLimiter: AttemptLimiter { AttemptLimiter(refusal: APIError.tooManyAttempts(retryAfter:)) }
    private var signupLimiter: AttemptLimiter { AttemptLimiter(refusal: APIError.tooManySignups(retryAfter:)) }

    func addRoutes(to router: Router<ServerContext>, authenticated: some RouterMiddleware<ServerContext>) {
        router.post(RouterPath(AccountPaths.signup), use: perRequest(Self.signup))
        router.post(RouterPath(AccountPaths.login), use: perRequest(Self.login))
        router.post(RouterPath(AccountPaths.apple), use: perRequest(Self.apple))
        router.post(RouterPath(AccountPaths.refresh), use: perRequest(Self.refresh))
        router.group(RouterPath(AccountPaths.logout)).add(middleware: authenticated).post(use: perRequest(Self.logout))
    }

    func logging(to logger: Logger) -> AuthController {
        AuthController(
            database: database.logging(to: logger),
            sessions: sessions.logging(to: logger),
            passwords: passwords,
            policy: policy,
            logger: logger
        )
    }

    /// Sign-ups count per address (each one, not just failures); the bcrypt hash waits behind
    /// sign-ins and is refused with 503 when too many wait.
    @Sendable func signup(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(PasswordCredentials.self, context: context)
        let email = try Credentials.email(body.email)
        try Credentials.newPassword(body.password)
        let deviceName = try Credentials.deviceName(body.deviceName)
        let attempt = try await database.withoutUser { [signupLimiter, policy] connection in
            try await signupLimiter.reserve(policy.signupLimits(address: context.clientAddress), account: nil, on: connection, logger: logger)
        }
        let hash: String
        do {
            hash = try await passwords.hash(body.password)
        } catch let error as APIError {
            // Refused for being busy, the sign-up did not happen: it does not count.
            try await database.withoutUser { [signupLimiter] connection in
                try await signupLimiter.takeBack(attempt, on: connection, logger: logger)
            }
            throw error
        }
        let userID = UUID()
        let tokens = try await database.withUser(userID) { [sessions] connection in
            try await UserRepository(logger: logger).insert(id: userID, email: email, passwordHash: hash, on: connection)
            return try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
        }
        return JSONBody(tokens, status: .created)
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
        let (attempt, found) = try await Self.counting(failure: "rate_limited") {
            try await database.withoutUser { [signInLimiter] connection in
                let attempt = try await signInLimiter.reserve(limits, account: AttemptLimiter.Key.account(email), on: connection, logger: logger)
                return (attempt, try await UserRepository(logger: logger).credentials(email: email, on: connection))
            }
        }
        let matches: Bool
        do {
            matches = try await Self.counting(failure: "busy") { try await passwords.verify(body.password, hash: found?.passwordHash) }
        } catch {
            try await database.withoutUser { [signInLimiter] connection in
                try await signInLimiter.takeBack(attempt, on: connection, logger: logger)
            }
            throw error
        }
        guard matches, let userID = found?.id else {
            ServerMetrics.signInFailure(reason: found == nil ? "unknown_account" : "wrong_password")
            throw APIError.badCredentials
        }
        try await database.withoutUser { [signInLimiter] connection in
            try await signInLimiter.takeBack(attempt, on: connection, logger: logger)
            try await signInLimiter.forget(key: limits[0].key, on: connection, logger: logger)
        }
        let tokens = try await database.withUser(userID) { [sessions] connection in
            try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
        }
        return JSONBody(tokens)
    }

    /// Runs `body`, counting a 429 or 503 it throws as a failed sign-in for `reason`.
    private static func counting<T>(failure reason: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as APIError where [.tooManyRequests, .serviceUnavailable].contains(error.status) {
            ServerMetrics.signInFailure(reason: reason)
            throw error
        }
    }

    @Sendable func apple(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        guard sessions.tokens.appleSignInEnabled else {
            throw APIError(status: .serviceUnavailable, code: "apple_disabled", message: "Sign in with Apple is not configured on this server.")
        }
        let body = try await request.decodeJSON(AppleSignIn.self, context: context)
        let deviceName = try Credentials.deviceName(body.deviceName)
        guard let identity = await sessions.tokens.verifyAppleToken(body.identityToken) else {
            ServerMetrics.signInFailure(reason: "invalid_identity_token")
            throw APIError(status: .unauthorized, code: "invalid_identity_token", message: "The Apple identity token is not valid.")
        }
        let subject = identity.subject.value
        let email = identity.email.map { $0.lowercased() }
        let users = UserRepository(logger: logger)
        let existing = try await database.withoutUser { connection in
            try await users.user(appleSubject: subject, on: connection)
        }
        let userID = existing ?? UUID()
        let tokens = try await database.withUser(userID) { [sessions] connection in
            if existing == nil {
                // An email already used by a password account is not linked: that would let
                // whoever controls the Apple ID into it.
                var storedEmail = email
                if let email, try await users.emailTaken(email, on: connection) { storedEmail = nil }
                try await users.insert(id: userID, email: storedEmail, appleSubject: subject, on: connection)
            }
            return try await sessions.open(userID: userID, deviceName: deviceName, on: connection)
        }
        return JSONBody(tokens, status: existing == nil ? .created : .ok)
    }

    @Sendable func refresh(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(RefreshRequest.self, context: context)
        guard let (userID, hash) = RefreshToken.parse(body.refreshToken) else {
            ServerMetrics.signInFailure(reason: "refresh_invalid")
            throw APIError.badRefreshToken
        }
        let outcome = try await database.withUser(userID) { [sessions] connection in
            try await sessions.refresh(userID: userID, hash: hash, on: connection)
        }
        switch outcome {
        case let .rotated(tokens): return JSONBody(tokens)
        case .reused:
            ServerMetrics.signInFailure(reason: "refresh_reused")
            throw APIError.badRefreshToken
        case .invalid:
            ServerMetrics.signInFailure(reason: "refresh_invalid")
            throw APIError.badRefreshToken
        }
    }

    @Sendable func logout(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let caller = try context.requireCaller()
        _ = try await database.withCaller(caller) { [sessions] connection in
            try await sessions.revoke(sessionID: caller.sessionID, on: connection)
        }
        return .noContent
    }
}
