import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Users never see each other's rows")
struct IsolationTests {
    @Test("with Ben's token, every endpoint refuses or hides Anna's rows, ids and devices")
    func endpointsAreIsolated() async throws {
        try await ServerHarness.withServer { _, client in
            let anna = try await client.signup("anna@example.org")
            let ben = try await client.signup("ben@example.org", device: "ben's phone")
            let annaMeal = Changes.meal(UUID(), name: "Anna's porridge", kcal: 320, at: Changes.now)
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: [annaMeal]))

            // Ben pulls: nothing of Anna's.
            let pulled = try await client.send(.get, SyncPaths.pull, token: ben.accessToken).decoded(PullResponse.self)
            #expect(pulled.changes.isEmpty)
            // Ben writes a row with Anna's id and a newer stamp: it becomes Ben's own row; Anna's is untouched.
            let hijack = Changes.meal(annaMeal.id, name: "Ben was here", kcal: 1, at: Changes.now + 10_000, device: "benphone")
            let pushed = try await client.send(
                .post,
                SyncPaths.push,
                token: ben.accessToken,
                json: PushRequest(deviceID: "benphone", changes: [hijack])
            )
            .decoded(PushResponse.self)
            #expect(pushed.results.map(\.status) == [.applied])
            let annaPull = try await client.send(.get, SyncPaths.pull, token: anna.accessToken).decoded(PullResponse.self)
            #expect(annaPull.changes == [annaMeal])
            // Ben cannot sign Anna's device out, nor see it.
            let revoke = try await client.send(.delete, AccountPaths.devices + "/\(anna.sessionID)", token: ben.accessToken)
            #expect(revoke.status == .notFound)
            #expect(try await client.send(.get, SyncPaths.pull, token: anna.accessToken).status == .ok)
            let devices = try await client.send(.get, AccountPaths.devices, token: ben.accessToken).decoded([DeviceSession].self)
            #expect(devices.map(\.id) == [ben.sessionID])
            // Ben's export holds only Ben.
            let export = try await client.send(.get, AccountPaths.export, token: ben.accessToken).decoded(AccountExport.self)
            #expect(export.email == "ben@example.org")
            #expect(export.rows.map(\.row) == [hijack.row])
            // Anna's refresh token is not Ben's to use, and Ben's deletion leaves Anna whole.
            let crossRefresh = anna.refreshToken.replacingOccurrences(of: anna.userID.uuidString, with: ben.userID.uuidString)
            #expect(try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: crossRefresh)).status == .unauthorized)
            #expect(try await client.send(.delete, AccountPaths.account, token: ben.accessToken).status == .noContent)
            let annaAfter = try await client.send(.get, SyncPaths.pull, token: anna.accessToken).decoded(PullResponse.self)
            #expect(annaAfter.changes == [annaMeal])
        }
    }

    @Test("row-level security in SQL: the app role sees and changes only the user set for the transaction")
    func rowLevelSecurityInSQL() async throws {
        try await ServerHarness.withServer { configuration, client in
            let anna = try await client.signup("anna@example.org")
            let ben = try await client.signup("ben@example.org")
            for (tokens, name) in [(anna, "Anna"), (ben, "Ben")] {
                let meal = Changes.meal(UUID(), name: name, kcal: 100, at: Changes.now)
                _ = try await client.send(.post, SyncPaths.push, token: tokens.accessToken, json: PushRequest(deviceID: "d", changes: [meal]))
            }
            try await ServerHarness.withConnection(configuration.databaseURL) { connection in
                let logger = ServerHarness.logger
                func count(_ table: String) async throws -> Int64 {
                    var total: Int64 = -1
                    for try await value in try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)
                        .decode(Int64.self)
                    {
                        total = value
                    }
                    return total
                }
                // No user set: nothing visible.
                for table in ["users", "sessions", "refresh_tokens", "sync_rows"] { #expect(try await count(table) == 0, "\(table)") }

                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT set_config('app.user_id', \(ben.userID.uuidString), true)", logger: logger)
                #expect(try await count("users") == 1)
                #expect(try await count("sync_rows") == 1)
                let names = try await connection.query("SELECT row->>'name' FROM sync_rows", logger: logger).decode(String.self)
                for try await name in names { #expect(name == "Ben") }
                let updated = try await connection.query(
                    "UPDATE sync_rows SET deleted = true WHERE user_id = \(anna.userID) RETURNING id",
                    logger: logger
                )
                for try await _ in updated.decode(UUID.self) { Issue.record("Ben's transaction updated Anna's row") }
                try await connection.query("COMMIT", logger: logger)

                // Writing a row for Anna while acting as Ben fails the policy check.
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT set_config('app.user_id', \(ben.userID.uuidString), true)", logger: logger)
                await #expect(throws: PSQLError.self) {
                    try await connection.query(
                        """
                        INSERT INTO sync_rows (user_id, table_name, id, hlc, deleted, row, seq)
                        VALUES (\(anna.userID), 'meal_logs', \(UUID()), 'x', false, '{}'::jsonb, 1)
                        """,
                        logger: logger
                    )
                }
                try await connection.query("ROLLBACK", logger: logger)
                // The app role is not the owner and cannot switch row security off for itself.
                await #expect(throws: PSQLError.self) {
                    try await connection.query("ALTER TABLE sync_rows DISABLE ROW LEVEL SECURITY", logger: logger)
                }
            }
        }
    }
}
