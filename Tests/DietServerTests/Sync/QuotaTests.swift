import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Per-user quota, push rate and cursor")
struct QuotaTests {
    private func meals(_ count: Int, from start: Int64 = 0) -> [Change] {
        (0..<count).map {
            Changes.meal(UUID(), name: "Meal \($0) " + String(repeating: "x", count: 60), kcal: 100, at: Changes.now + start + Int64($0))
        }
    }

    private func storedBytes(_ userID: UUID, _ configuration: ServerConfiguration) async throws -> (usage: Int64, actual: Int64) {
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            let rows = try await connection.query(
                """
                SELECT (SELECT stored_bytes FROM user_usage WHERE user_id = \(userID)),
                       (SELECT COALESCE(sum(octet_length(row::text)), 0)::int8 FROM sync_rows WHERE user_id = \(userID))
                """,
                logger: ServerHarness.logger
            )
            for try await (usage, actual) in rows.decode((Int64, Int64).self) { return (usage, actual) }
            return (0, 0)
        }
    }

    @Test("a push past the stored-bytes quota is refused whole with 413 quota_exceeded; a deletion still syncs")
    func storedBytesQuota() async throws {
        try await ServerHarness.withServer(configure: { $0.quota.storedBytes = 8000 }) { _, client in
            // Given: about 5 KB stored
            let token = try await client.signup("anna@example.org").accessToken
            let first = meals(20)
            let accepted = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: first))
            #expect(accepted.status == .ok)
            // When
            let refused = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "laptop", changes: meals(20, from: 100))
            )
            // Then
            #expect(refused.status == .contentTooLarge)
            #expect(refused.errorBody?.error.code == "quota_exceeded")
            #expect(refused.errorBody?.error.message.contains("of the 7.8 KB allowed") == true)
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(page.changes.count == 20)
            // A tombstone (the row as it was, marked deleted) does not grow the total: it passes.
            let tombstone = Change(
                table: first[0].table,
                id: first[0].id,
                hlc: HLC(wallMs: Changes.now + 500, counter: 0, deviceID: "laptop"),
                deleted: true,
                row: first[0].row
            )
            let deletion = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: [tombstone]))
            #expect(try deletion.decoded(PushResponse.self).results.map(\.status) == [.applied])
        }
    }

    @Test("the stored bytes are kept per push (inserts, replacements, tombstones) and equal the rows' sizes")
    func usageIsTracked() async throws {
        try await ServerHarness.withServer { configuration, client in
            // Given
            let anna = try await client.signup("anna@example.org")
            let first = meals(10)
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: first))
            // When: one meal renamed (longer), one deleted, one stale change ignored
            let renamed = Changes.meal(first[0].id, name: String(repeating: "Longer name ", count: 5), kcal: 100, at: Changes.now + 50)
            let deleted = Change(
                table: .mealLogs,
                id: first[1].id,
                hlc: HLC(wallMs: Changes.now + 50, counter: 0, deviceID: "laptop"),
                deleted: true,
                row: first[1].row
            )
            let stale = Changes.meal(first[2].id, name: "Stale", kcal: 1, at: Changes.now - 1000)
            _ = try await client.send(
                .post,
                SyncPaths.push,
                token: anna.accessToken,
                json: PushRequest(deviceID: "laptop", changes: [renamed, deleted, stale])
            )
            // Then: the kept total equals the rows' sizes as PostgreSQL prints them, within formatting
            let (usage, actual) = try await storedBytes(anna.userID, configuration)
            #expect(usage > 0)
            #expect(abs(usage - actual) <= actual / 10, "usage \(usage), rows \(actual)")
        }
    }

    @Test("pushing faster than the per-minute rate answers 429 push_rate_limited with Retry-After; nothing of it is stored")
    func pushRate() async throws {
        try await ServerHarness.withServer(configure: { $0.quota.pushBytesPerMinute = 4000 }) { _, client in
            // Given
            let token = try await client.signup("anna@example.org").accessToken
            #expect(
                try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: meals(10))).status == .ok
            )
            // When
            let second = meals(10, from: 100)
            let refused = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: second))
            // Then
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorBody?.error.code == "push_rate_limited")
            let retry = try #require(refused.headers[.retryAfter].flatMap(Int.init))
            #expect((1...60).contains(retry))
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(page.changes.count == 10)
        }
    }

    @Test("the pull cursor counts only the user's own changes: another user's writes do not move it")
    func cursorIsPerUser() async throws {
        try await ServerHarness.withServer { _, client in
            // Given
            let anna = try await client.signup("anna@example.org")
            let ben = try await client.signup("ben@example.org")
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: meals(1)))
            // When: Ben writes a lot, then Anna one more
            _ = try await client.send(.post, SyncPaths.push, token: ben.accessToken, json: PushRequest(deviceID: "benphone", changes: meals(50)))
            _ = try await client.send(
                .post,
                SyncPaths.push,
                token: anna.accessToken,
                json: PushRequest(deviceID: "laptop", changes: meals(1, from: 10))
            )
            // Then
            let page = try await client.send(.get, SyncPaths.pull, token: anna.accessToken).decoded(PullResponse.self)
            #expect(page.changes.count == 2)
            #expect(page.nextCursor == 2)
        }
    }

    @Test("the migration continues each user's sequence from their highest one and counts their stored bytes")
    func migrationKeepsCursors() async throws {
        // Given: a database at the first migration, with rows numbered by the old global sequence
        let configuration = try await ServerHarness.configuration()
        let logger = Logger(label: "migrations")
        let all = try Migrator.bundled()
        try await Migrator(logger: logger).migrate(configuration.migrationDatabaseURL, migrations: Array(all.prefix(1)))
        let anna = UUID()
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            try await connection.query("INSERT INTO users (id, email, password_hash) VALUES (\(anna), 'anna@example.org', 'x')", logger: logger)
            for seq in [Int64(7), 41] {
                try await connection.query(
                    """
                    INSERT INTO sync_rows (user_id, table_name, id, hlc, deleted, row, seq)
                    VALUES (\(anna), 'meal_logs', \(UUID()), '0001763800000000-0000-laptop', false, '{"name": "Soup"}', \(seq))
                    """,
                    logger: logger
                )
            }
        }
        // When
        try await Migrator(logger: logger).migrate(configuration.migrationDatabaseURL, migrations: all)
        // Then
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            let rows = try await connection.query("SELECT last_seq, stored_bytes FROM user_usage WHERE user_id = \(anna)", logger: logger)
            var found = false
            for try await (seq, bytes) in rows.decode((Int64, Int64).self) {
                found = true
                #expect(seq == 41)
                #expect(bytes == 2 * Int64(#"{"name": "Soup"}"#.utf8.count))
            }
            #expect(found)
        }
    }
}
