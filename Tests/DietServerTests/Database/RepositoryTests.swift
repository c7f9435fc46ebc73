import Foundation
import Hummingbird
import PostgresNIO
import ServerTestSupport
import Testing

@testable import DietServer

/// The repositories on a fresh, migrated database, through the app role and row-level security.
enum RepositoryDatabase {
    static func with(_ body: (ServerDatabase) async throws -> Void) async throws {
        let configuration = try await ServerHarness.configuration()
        _ = try await Migrator(logger: ServerHarness.logger).migrate(configuration.migrationDatabaseURL, migrations: try Migrator.bundled())
        let database = ServerDatabase(configuration.databaseURL, maximumConnections: configuration.databaseConnections, logger: ServerHarness.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await database.client.run() }
            defer { group.cancelAll() }
            try await body(database)
        }
    }
}

@Suite("User and session repositories")
struct RepositoryTests {
    let users = UserRepository(logger: ServerHarness.logger)
    let sessions = SessionRepository(logger: ServerHarness.logger)
    let attempts = AttemptRepository(logger: ServerHarness.logger)

    @Test("a refresh token is claimed once; presented again it names its session; revoking ends the session once")
    func refreshTokens() async throws {
        try await RepositoryDatabase.with { database in
            // Given a user with two sessions, a live token on the laptop and an expired one on the phone.
            let user = UUID()
            let laptop = UUID()
            let phone = UUID()
            let live = Data(repeating: 1, count: 32)
            let expired = Data(repeating: 2, count: 32)
            try await database.withUser(user) { [users, sessions] (connection: PostgresConnection) async throws in
                try await users.insert(id: user, email: "anna@example.org", passwordHash: "hash", on: connection)
                try await sessions.insertSession(userID: user, sessionID: laptop, deviceName: "laptop", on: connection)
                try await sessions.insertSession(userID: user, sessionID: phone, deviceName: "phone", on: connection)
                try await sessions.insertRefreshToken(
                    userID: user,
                    hash: live,
                    sessionID: laptop,
                    expires: Date().addingTimeInterval(3600),
                    on: connection
                )
                try await sessions.insertRefreshToken(
                    userID: user,
                    hash: expired,
                    sessionID: phone,
                    expires: Date().addingTimeInterval(-1),
                    on: connection
                )
            }
            try await database.withUser(user) { [sessions] (connection: PostgresConnection) async throws in
                // When the tokens are claimed, then only the live one works, and only once.
                #expect(try await sessions.claimRefreshToken(hash: live, on: connection) == laptop)
                #expect(try await sessions.claimRefreshToken(hash: live, on: connection) == nil)
                #expect(try await sessions.sessionOfUsedToken(hash: live, on: connection) == laptop)
                #expect(try await sessions.claimRefreshToken(hash: expired, on: connection) == nil)
                #expect(try await sessions.sessionOfUsedToken(hash: expired, on: connection) == nil)
                // Revoking the laptop ends it once; the list keeps the phone.
                #expect(try await sessions.revoke(sessionID: laptop, on: connection))
                #expect(try await sessions.revoke(sessionID: laptop, on: connection) == false)
                #expect(try await sessions.sessionOfUsedToken(hash: live, on: connection) == nil)
                let list = try await sessions.list(current: phone, on: connection)
                #expect(list.map(\.deviceName) == ["phone"])
                #expect(list.first?.current == true)
            }
            // Another user sees none of it.
            try await database.withUser(UUID()) { [sessions] (connection: PostgresConnection) async throws in
                #expect(try await sessions.list(current: phone, on: connection).isEmpty)
            }
        }
    }

    @Test("users are found by email and Apple subject before sign-in; a taken email is 409; deletion leaves no session or attempt")
    func userLookups() async throws {
        try await RepositoryDatabase.with { database in
            let anna = UUID()
            let apple = UUID()
            let email = "anna@example.org"
            let key = AttemptLimiter.Key.account(email)
            // Given no account, nothing is found.
            try await database.withoutUser { [users] (connection: PostgresConnection) async throws in
                #expect(try await users.credentials(email: email, on: connection) == nil)
                #expect(try await users.emailTaken(email, on: connection) == false)
            }
            // When Anna signs up with a password and someone else with Apple, and Anna failed to sign in once.
            try await database.withUser(anna) { [users, sessions] (connection: PostgresConnection) async throws in
                try await users.insert(id: anna, email: email, passwordHash: "hash", on: connection)
                try await sessions.insertSession(userID: anna, sessionID: UUID(), deviceName: "laptop", on: connection)
            }
            try await database.withUser(apple) { [users] (connection: PostgresConnection) async throws in
                try await users.insert(id: apple, email: nil, appleSubject: "apple-subject-1", on: connection)
            }
            try await database.withoutUser { [attempts] (connection: PostgresConnection) async throws in
                try await attempts.record(UUID(), keys: [key], account: key, on: connection)
            }
            // Then both are found without a user, and Anna's email cannot be taken again.
            try await database.withoutUser { [users] (connection: PostgresConnection) async throws in
                let found = try await users.credentials(email: email, on: connection)
                #expect(found?.id == anna && found?.passwordHash == "hash")
                #expect(try await users.emailTaken(email, on: connection))
                #expect(try await users.user(appleSubject: "apple-subject-1", on: connection) == apple)
                #expect(try await users.user(appleSubject: "someone else", on: connection) == nil)
            }
            let other = UUID()
            let taken = await #expect(throws: APIError.self) {
                try await database.withUser(other) { [users] (connection: PostgresConnection) async throws in
                    try await users.insert(id: other, email: email, passwordHash: "other", on: connection)
                }
            }
            #expect(taken?.status == .conflict && taken?.code == "email_taken")
            // When Anna is deleted, then her account, sessions and attempts are gone; the Apple user stays.
            try await database.withUser(anna) { [users, sessions] (connection: PostgresConnection) async throws in
                #expect(try await users.profile(on: connection)?.email == email)
                try await users.delete(userID: anna, on: connection)
                #expect(try await users.profile(on: connection) == nil)
                #expect(try await sessions.list(current: UUID(), on: connection).isEmpty)
            }
            try await database.withoutUser { [users, attempts] (connection: PostgresConnection) async throws in
                #expect(try await users.credentials(email: email, on: connection) == nil)
                #expect(try await users.user(appleSubject: "apple-subject-1", on: connection) == apple)
                let counts = try await attempts.counts(keys: [key], windows: [3600], on: connection)
                #expect(counts.map(\.count) == [0])
            }
        }
    }
}
