import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

@testable import DietServer

/// A server registered with a fake WHOOP on loopback, and the steps of connecting through it.
enum WhoopHarness {
    static let secret = "secret"

    /// Runs `body` with a server whose WHOOP is `fake` (served for the duration).
    static func withServer(
        _ fake: FakeWhoop,
        _ body: @Sendable @escaping (ServerConfiguration, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await FakeWhoop.serve(fake) { base in
            try await ServerHarness.withServer(configure: { $0.whoop = registration(fake: base) }, body)
        }
    }

    /// The app's WHOOP registration with the fake served at `base`.
    static func registration(fake base: String) -> WhoopConfiguration {
        WhoopConfiguration(
            clientID: "client",
            clientSecret: secret,
            redirectURI: "https://wdiet.example/v1/whoop/callback",
            apiBase: base + "/developer",
            oauthBase: base + "/oauth/oauth2"
        )
    }

    /// Starts a connection; returns the state the authorize address carries.
    static func start(_ client: any TestClientProtocol, token: String) async throws -> String {
        let start = try await client.send(.post, WhoopPaths.connect, token: token).decoded(WhoopConnectStart.self)
        let items = URLComponents(string: start.authorizeURL)?.queryItems ?? []
        return try #require(items.first { $0.name == "state" }?.value)
    }

    /// The browser's return from WHOOP's consent page.
    static func callback(_ client: any TestClientProtocol, query: String) async throws -> TestResponse {
        try await client.execute(uri: WhoopPaths.callback + "?" + query, method: .get, headers: [:], body: nil) { $0 }
    }

    /// Signs up, connects through the fake's consent (code "good-code"); returns the tokens.
    static func connect(_ client: any TestClientProtocol, email: String = "anna@example.org") async throws -> TokenResponse {
        let account = try await client.signup(email)
        let state = try await start(client, token: account.accessToken)
        let page = try await callback(client, query: "code=good-code&state=\(state)")
        #expect(page.status == .ok, "\(String(buffer: page.body))")
        return account
    }

    static func pull(_ client: any TestClientProtocol, token: String) async throws -> [Change] {
        try await client.send(.get, SyncPaths.pull + "?cursor=0&limit=500", token: token).decoded(PullResponse.self).changes
            .filter { $0.table == .whoopRecords }
    }

    /// Posts what WHOOP would for `type` and `id`.
    static func webhook(
        _ client: any TestClientProtocol,
        type: String,
        id: String,
        userID: Int64 = 10129,
        secret: String = secret
    ) async throws -> TestResponse {
        let (headers, body) = FakeWhoop.signedWebhook(type: type, id: id, userID: userID, secret: secret)
        return try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body) { $0 }
    }

    /// A number from SQL run as the database owner (past row-level security).
    static func count(_ configuration: ServerConfiguration, _ sql: String) async throws -> Int64 {
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            var total: Int64 = 0
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: ServerHarness.logger).decode(Int64.self) {
                total = value
            }
            return total
        }
    }

    static func execute(_ configuration: ServerConfiguration, _ sql: String) async throws {
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: ServerHarness.logger)
        }
    }

    /// The sealed tokens column of `userID`, as stored.
    static func sealedTokens(_ configuration: ServerConfiguration, userID: UUID) async throws -> [UInt8] {
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            var bytes: [UInt8] = []
            for try await value in try await connection.query(
                "SELECT tokens FROM whoop_connections WHERE user_id = \(userID)",
                logger: ServerHarness.logger
            ).decode(Data.self) { bytes = [UInt8](value) }
            return bytes
        }
    }
}

extension Array where Element == UInt8 {
    func contains(bytesOf text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
