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
    let limiter: SignInLimiter
    let logger: Logger

    func addRoutes(to router: Router<ServerContext>, authenticated: some RouterMiddleware<ServerContext>) {
        router.post(RouterPath(AccountPaths.signup), use: signup)
        router.post(RouterPath(AccountPaths.login), use: login)
        router.post(RouterPath(AccountPaths.apple), use: apple)
        router.post(RouterPath(AccountPaths.refresh), use: refresh)
        router.group(RouterPath(AccountPaths.logout)).add(middleware: authenticated).post(use: logout)
    }

    @Sendable func signup(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(PasswordCredentials.self, context: context)
        let email = try Self.validEmail(body.email)
        if let problem = Passwords.problem(with: body.password) { throw APIError.badRequest(problem) }
        let deviceName = try Self.validDeviceName(body.deviceName)
        let hash = try await passwords.hash(body.password)
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

    @Sendable func login(request: Request, context: ServerContext) async throws -> JSONBody<TokenResponse> {
        let body = try await request.decodeJSON(PasswordCredentials.self, context: context)
        let email = body.email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let deviceName = try Self.validDeviceName(body.deviceName)
        let account = SignInLimiter.accountKey(email)
        let address = SignInLimiter.addressKey(context.clientAddress)
        let found = try await database.withoutUser { [limiter, logger] connection in
            try await limiter.check(account: account, address: address, on: connection, logger: logger)
            let rows = try await connection.query("SELECT id, password_hash FROM auth_user_by_email(\(email))", logger: logger)
            for try await (id, hash) in rows.decode((UUID, String?).self) { return (id, hash) as (UUID, String?)? }
            return nil
        }
        guard try await passwords.verify(body.password, hash: found?.1), let userID = found?.0 else {
            try await database.withoutUser { [limiter, logger] connection in
                try await limiter.recordFailure(account: account, address: address, on: connection, logger: logger)
            }
            throw APIError.badCredentials
        }
        try await database.withoutUser { [limiter, logger] connection in
            try await limiter.recordSuccess(account: account, on: connection, logger: logger)
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
        let deviceName = try Self.validDeviceName(body.deviceName)
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

    static func validEmail(_ text: String) throws -> String {
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw APIError.badRequest("The email address \"\(text.prefix(80))\" is not valid.") }
        return email
    }

    static func validDeviceName(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else {
            throw APIError.badRequest("The device name needs 1 to 100 characters.")
        }
        return name
    }
}
