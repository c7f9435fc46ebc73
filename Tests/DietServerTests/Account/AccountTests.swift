import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Account export and deletion")
struct AccountTests {
    @Test("the export holds the account, its devices and every synced row including tombstones")
    func export() async throws {
        try await ServerHarness.withServer { _, client in
            let anna = try await client.signup("anna@example.org")
            let meal = Changes.meal(UUID(), name: "Porridge", kcal: 320, at: Changes.now)
            let gone = Changes.meal(UUID(), name: "Crisps", kcal: 500, at: Changes.now, deleted: true)
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: [meal, gone]))
            let export = try await client.send(.get, AccountPaths.export, token: anna.accessToken).decoded(AccountExport.self)
            #expect(export.userID == anna.userID)
            #expect(export.devices.count == 1)
            #expect(Set(export.rows.map(\.id)) == [meal.id, gone.id])
            #expect(export.rows.first { $0.id == gone.id }?.deleted == true)
        }
    }

    @Test("deleting the account leaves no row of the user in any table and signs every device out")
    func purge() async throws {
        try await ServerHarness.withServer { configuration, client in
            let anna = try await client.signup("anna@example.org")
            let phone = try await client.login("anna@example.org").decoded(TokenResponse.self)
            _ = try await client.login("anna@example.org", password: "a wrong password")
            _ = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: phone.refreshToken))
            let meals = (0..<20).map { Changes.meal(UUID(), name: "Meal \($0)", kcal: 100, at: Changes.now + Int64($0)) }
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: meals))
            let ben = try await client.signup("ben@example.org")

            #expect(try await client.send(.delete, AccountPaths.account, token: anna.accessToken).status == .noContent)
            #expect(try await client.send(.get, SyncPaths.pull, token: phone.accessToken).status == .unauthorized)

            // As the owner (no row-level security in the way): every table with a user_id column.
            var owner = configuration.migrationDatabaseURL
            owner.username = "postgres"
            try await ServerHarness.withConnection(owner) { connection in
                let logger = ServerHarness.logger
                var tables: [String] = []
                for try await name in try await connection.query(
                    """
                    SELECT table_name::text FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id'
                    """,
                    logger: logger
                ).decode(String.self) { tables.append(name) }
                #expect(Set(tables) == ["sessions", "refresh_tokens", "sync_rows", "user_usage", "whoop_connections", "whoop_states"])
                for table in tables + ["users"] {
                    let column = table == "users" ? "id" : "user_id"
                    let rows = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: "SELECT count(*) FROM \(table) WHERE \(column) = $1",
                            binds: bindings(anna.userID)
                        ),
                        logger: logger
                    )
                    for try await count in rows.decode(Int64.self) { #expect(count == 0, "\(table)") }
                }
                let attempts = try await connection.query(
                    "SELECT count(*) FROM auth_attempts WHERE account = \(AttemptLimiter.Key.account("anna@example.org"))",
                    logger: logger
                )
                for try await count in attempts.decode(Int64.self) { #expect(count == 0, "auth_attempts") }
                // Ben is untouched.
                for try await count in try await connection.query("SELECT count(*) FROM sessions WHERE user_id = \(ben.userID)", logger: logger)
                    .decode(Int64.self)
                {
                    #expect(count == 1)
                }
            }
            #expect(try await client.login("anna@example.org").status == .unauthorized)
        }
    }

    private func bindings(_ id: UUID) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(id, context: .default)
        return binds
    }
}

@Suite("Health, readiness and the OpenAPI document")
struct RoutesTests {
    @Test("health and ready answer; the document is served")
    func healthReadyDocument() async throws {
        try await ServerHarness.withServer { _, client in
            #expect(try await client.send(.get, "/health").status == .ok)
            #expect(try await client.send(.get, "/ready").status == .ok)
            let document = try await client.send(.get, "/openapi.json")
            #expect(document.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: document.body)) as? [String: Any]
            #expect(json?["openapi"] as? String == "3.1.0")
        }
    }

    @Test("every route of the router is in the OpenAPI document with its method, and nothing else is")
    func documentMatchesRoutes() async throws {
        let configuration = ServerConfiguration(
            databaseURL: DatabaseURL(host: "127.0.0.1", port: 1, username: "u", password: nil, database: "d"),
            migrationDatabaseURL: DatabaseURL(host: "127.0.0.1", port: 1, username: "u", password: nil, database: "d"),
            bcryptCost: 4
        )
        let logger = Logger(label: "routes")
        let router = buildRouter(
            configuration: configuration,
            database: ServerDatabase(configuration.databaseURL, maximumConnections: configuration.databaseConnections, logger: logger),
            tokens: try await TokenService(configuration: configuration),
            logger: logger
        )
        let routes = Set(
            router.routes.map { route in
                let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                return "\(route.method.rawValue.lowercased()) /" + path.joined(separator: "/")
            }
        )
        let document = try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } })
        #expect(routes == documented)
        #expect(routes.count >= 14)
    }
}
