import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

@testable import DietServer

@Suite("WHOOP tokens at rest and their refresh")
struct WhoopTokenTests {
    static func tokens(_ access: String) throws -> WhoopTokens {
        try JSONDecoder().decode(
            WhoopTokens.self,
            from: Data(#"{"access_token":"\#(access)","refresh_token":"r-\#(access)","expires_at":0,"scope":"offline"}"#.utf8)
        )
    }

    @Test("a sealed box opens only for its user under its key; every seal takes a new nonce")
    func tokenBox() throws {
        let anna = UUID()
        let box = try TokenBox(key: Data(repeating: 7, count: 32))
        let tokens = try Self.tokens("secret-access")
        let sealed = try box.seal(tokens, for: anna)
        #expect(try box.open(sealed, for: anna) == tokens)
        #expect(!Array(sealed).contains(bytesOf: "secret-access"))
        #expect(try box.seal(tokens, for: anna) != sealed)
        // Moved to another user's row, or read under another key: it does not open
        #expect(throws: TokenBox.Failure.cannotOpen) { try box.open(sealed, for: UUID()) }
        #expect(throws: TokenBox.Failure.cannotOpen) { try TokenBox(key: Data(repeating: 8, count: 32)).open(sealed, for: anna) }
        var tampered = sealed
        tampered[tampered.count / 2] ^= 1
        #expect(throws: TokenBox.Failure.cannotOpen) { try box.open(tampered, for: anna) }
        #expect(throws: TokenBox.Failure.badKey) { try TokenBox(key: Data(repeating: 7, count: 16)) }
    }

    @Test("tokens copied into another user's row do not open there, so that user's WHOOP calls fail instead of using them")
    func movedBetweenUsers() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            let anna = try await WhoopHarness.connect(client, email: "anna@example.org")
            await fake.setUser(20000)
            let ben = try await WhoopHarness.connect(client, email: "ben@example.org")
            let annas = try await WhoopHarness.sealedTokens(configuration, userID: anna.userID)
            let box = try TokenBox(key: configuration.tokenKey)
            #expect(throws: TokenBox.Failure.cannotOpen) { try box.open(Data(annas), for: ben.userID) }
            // Written into Ben's row as a database reader could: the server refuses to use them
            try await WhoopHarness.execute(
                configuration,
                """
                UPDATE whoop_connections SET tokens = (SELECT tokens FROM whoop_connections WHERE user_id = '\(anna.userID)')
                WHERE user_id = '\(ben.userID)'
                """
            )
            let start = Date().addingTimeInterval(-7200)
            try await fake.upsert(
                "workout",
                json: FakeWhoop.workoutJSON(
                    id: WhoopWebhookTests.workoutID,
                    userID: 20000,
                    start: start,
                    end: start.addingTimeInterval(1800)
                )
            )
            #expect(
                try await WhoopHarness.webhook(client, type: "workout.updated", id: WhoopWebhookTests.workoutID, userID: 20000).status == .noContent
            )
            let benRows = try await WhoopHarness.pull(client, token: ben.accessToken)
            #expect(!benRows.contains { $0.id == WhoopRow.id(kind: "workout", whoopID: WhoopWebhookTests.workoutID) })
        }
    }

    @Test("two instances' refresh jobs at once refresh a due user exactly once, and the rotated tokens are kept")
    func refreshOnceAcrossInstances() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            // Given a connection whose access token expires in 5 minutes (within the job's 10)
            let account = try await WhoopHarness.connect(client)
            try await WhoopHarness.execute(configuration, "UPDATE whoop_connections SET expires_at = now() + interval '5 minutes'")
            #expect(await fake.refreshCount == 0)

            // When two instances (each with its own connections) run the job at the same moment
            let outcomes = try await Self.withInstances(configuration, count: 2) { services in
                try await withThrowingTaskGroup(of: [UUID: WhoopRefreshService.Outcome].self) { group in
                    for service in services { group.addTask { await service.runOnce() } }
                    return try await group.reduce(into: []) { $0.append($1[account.userID]) }
                }
            }

            // Then WHOOP saw one refresh, none was refused, and the stored tokens are the new ones
            #expect(await fake.refreshCount == 1)
            #expect(await fake.refusedRefreshes == 0)
            #expect(outcomes.filter { $0 == .ok }.count == 1)
            #expect(outcomes.allSatisfy { $0 == .ok || $0 == .skipped || $0 == nil })
            let sealed = try await WhoopHarness.sealedTokens(configuration, userID: account.userID)
            let stored = try TokenBox(key: configuration.tokenKey).open(Data(sealed), for: account.userID)
            #expect(stored.accessToken == "access-2" && stored.refreshToken == "refresh-2")
            #expect(
                try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_connections WHERE expires_at > now() + interval '50 minutes'")
                    == 1
            )
            // A later pass finds nobody due
            let later = try await Self.withInstances(configuration, count: 1) { await $0[0].runOnce() }
            #expect(later.isEmpty)
            #expect(await fake.refreshCount == 1)
        }
    }

    /// `count` refresh services, each on its own pool of connections, as separate instances have.
    static func withInstances<T: Sendable>(
        _ configuration: ServerConfiguration,
        count: Int,
        _ body: ([WhoopRefreshService]) async throws -> T
    ) async throws -> T {
        let databases = (0..<count).map { _ in
            ServerDatabase(configuration.databaseURL, maximumConnections: configuration.databaseConnections, logger: ServerHarness.logger)
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for database in databases { group.addTask { await database.client.run() } }
            defer { group.cancelAll() }
            return try await body(databases.map { WhoopRefreshService(database: $0, configuration: configuration, logger: ServerHarness.logger) })
        }
    }
}
