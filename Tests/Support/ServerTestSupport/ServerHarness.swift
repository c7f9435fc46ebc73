import DietServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
import SyncProtocol
import Testing

/// A fresh PostgreSQL database per test, in the cluster `scripts/test` starts, and the
/// server built on it exactly as `wdiet-server` builds itself.
public enum ServerHarness {
    public static let logger = Logger(label: "wdiet-server-tests")

    /// The superuser address `scripts/with-postgres` exports.
    public static func adminURL() throws -> DatabaseURL {
        guard let text = ProcessInfo.processInfo.environment["WDIET_TEST_POSTGRES_URL"] else {
            Issue.record("WDIET_TEST_POSTGRES_URL is not set: run the tests with scripts/test, which starts PostgreSQL")
            throw HarnessError.noPostgres
        }
        return try DatabaseURL(parsing: text, variable: "WDIET_TEST_POSTGRES_URL")
    }

    /// A new empty database; returns the configuration of a server on it (bcrypt cost 4, in
    /// development mode: the secrets are the development ones).
    public static func configuration() async throws -> ServerConfiguration {
        let admin = try adminURL()
        let name = "wdiet_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        _ = try await withConnection(admin) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        var owner = admin
        owner.database = String(name)
        var app = owner
        app.username = "wdiet_app"
        return ServerConfiguration(mode: .development, databaseURL: app, migrationDatabaseURL: owner, port: 0, bcryptCost: 4)
    }

    public static func withConnection<T: Sendable>(_ url: DatabaseURL, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await url.withConnection(logger: logger, body)
    }

    /// Runs `body` against a server on a fresh database: through its router, or (`.live`)
    /// over real connections on a loopback port, for tests that need them (e.g. the peer's address).
    public static func withServer(
        _ setup: TestingSetup = .router,
        configure adjust: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ServerConfiguration, any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = try await configuration()
        adjust(&configuration)
        let app = try await buildApplication(configuration: configuration, logger: logger)
        let frozen = configuration
        try await app.test(setup) { client in try await body(frozen, client) }
    }

    /// Runs `body` with the address of a live server on a loopback port of a fresh database.
    public static func withLiveServer(
        configure adjust: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ServerConfiguration, URL) async throws -> Void
    ) async throws {
        try await withServer(.live, configure: adjust) { configuration, client in
            guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)") else { throw HarnessError.noPostgres }
            try await body(configuration, url)
        }
    }
}

public enum HarnessError: Error {
    case noPostgres
    case unexpectedStatus(HTTPResponse.Status, String)
}

/// JSON requests and responses for tests.
extension TestClientProtocol {
    @discardableResult
    public func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        json: (any Encodable)? = nil,
        rawBody: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json { body = ByteBuffer(bytes: try JSONEncoder.api.encode(json)) }
        if let rawBody { body = ByteBuffer(string: rawBody) }
        return try await execute(uri: uri, method: method, headers: headers, body: body) { $0 }
    }

    public func signup(_ email: String, password: String = "correct horse battery", device: String = "laptop") async throws -> TokenResponse {
        let response = try await send(.post, AccountPaths.signup, json: PasswordCredentials(email: email, password: password, deviceName: device))
        return try response.decoded(TokenResponse.self, expecting: .created)
    }

    public func login(_ email: String, password: String = "correct horse battery", device: String = "phone") async throws -> TestResponse {
        try await send(.post, AccountPaths.login, json: PasswordCredentials(email: email, password: password, deviceName: device))
    }
}

extension TestResponse {
    public func decoded<T: Decodable>(_ type: T.Type, expecting status: HTTPResponse.Status = .ok) throws -> T {
        guard self.status == status else { throw HarnessError.unexpectedStatus(self.status, String(buffer: body)) }
        return try JSONDecoder.api.decode(T.self, from: Data(buffer: body))
    }

    public var errorBody: APIErrorBody? {
        try? JSONDecoder.api.decode(APIErrorBody.self, from: Data(buffer: body))
    }
}

/// Several instances on one database, as behind a load balancer.
extension ServerHarness {
    /// Runs `body` with the addresses of `count` live servers on loopback ports, all built
    /// exactly as `wdiet-server` builds itself from one configuration on one fresh database
    /// (the same secrets, so a token one instance issued is good on the others).
    public static func withLiveServers(
        count: Int = 2,
        configure adjust: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ServerConfiguration, [URL]) async throws -> Void
    ) async throws {
        var configuration = try await configuration()
        adjust(&configuration)
        try await nestLiveServers(count, configuration: configuration, started: [], body)
    }

    /// Starts one instance and, inside its run, the remaining ones.
    private static func nestLiveServers(
        _ remaining: Int,
        configuration: ServerConfiguration,
        started: [URL],
        _ body: @Sendable (ServerConfiguration, [URL]) async throws -> Void
    ) async throws {
        guard remaining > 0 else { return try await body(configuration, started) }
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.test(.live) { client in
            guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)") else { throw HarnessError.noPostgres }
            try await nestLiveServers(remaining - 1, configuration: configuration, started: started + [url], body)
        }
    }
}
