import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import Testing

@testable import DietServer

@Suite("Server configuration and migrations")
struct ConfigurationTests {
    @Test("the environment is read with safe local defaults once development mode is asked for")
    func defaults() throws {
        // When
        let configuration = try ServerConfiguration(environment: ["WDIET_ENV": "development"])
        // Then
        #expect(configuration.mode == .development)
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8090, "development binds loopback unless told otherwise")
        #expect(try ServerConfiguration(environment: ["WDIET_ENV": "development", "WDIET_LISTEN": "0.0.0.0:9000"]).host == "0.0.0.0")
        #expect(configuration.connections.maxConnectionsPerAddress == 32 && configuration.connections.headerTimeout == 10)
        #expect(configuration.databaseURL.username == "wdiet_app")
        #expect(configuration.bcryptCost == 12)
        #expect(configuration.clientAddress.trustedProxies.isEmpty)
        #expect(configuration.quota.storedBytes == 100 * 1024 * 1024)
        // Two connections to PostgreSQL per core, and one more.
        #expect(configuration.databaseConnections == 2 * ProcessInfo.processInfo.activeProcessorCount + 1)
    }

    @Test("production is the default: an empty environment is refused for its development secret, naming the variable")
    func productionIsTheDefault() throws {
        #expect(
            throws: ConfigurationError.invalid(
                "WDIET_JWT_SECRET",
                "must be set to a secret of at least 32 bytes (or WDIET_ENV=development for local use)"
            )
        ) {
            try ServerConfiguration(environment: [:])
        }
    }

    @Test("production refuses the development secrets and a short secret, naming the variable")
    func productionNeedsSecrets() throws {
        #expect(
            throws: ConfigurationError.invalid(
                "WDIET_JWT_SECRET",
                "must be set to a secret of at least 32 bytes (or WDIET_ENV=development for local use)"
            )
        ) {
            try ServerConfiguration(environment: ["WDIET_ENV": "production", "WDIET_JWT_SECRET": "too short"])
        }
        let secret = String(repeating: "s", count: 40)
        #expect(throws: ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be set (or WDIET_ENV=development for local use)")) {
            try ServerConfiguration(environment: ["WDIET_JWT_SECRET": secret])
        }
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let fine = try ServerConfiguration(environment: ["WDIET_JWT_SECRET": secret, "WDIET_TOKEN_KEY": key])
        #expect(fine.mode == .production)
    }

    @Test("the limits are read from the environment")
    func limits() throws {
        // When
        let configuration = try ServerConfiguration(environment: [
            "WDIET_ENV": "development", "WDIET_TRUSTED_PROXIES": "10.0.0.0/8, ::1", "WDIET_PROXY_HEADER": "Forwarded",
            "WDIET_USER_QUOTA_BYTES": "5000000", "WDIET_PUSH_BYTES_PER_MINUTE": "3000000", "WDIET_MAX_CONNECTIONS": "64",
            "WDIET_IDLE_TIMEOUT": "5", "WDIET_BODY_TIMEOUT": "7", "WDIET_BCRYPT_CONCURRENCY": "3", "WDIET_DATABASE_CONNECTIONS": "16",
            "WDIET_MAX_CONNECTIONS_PER_ADDRESS": "6", "WDIET_HEADER_TIMEOUT": "4",
        ])
        // Then
        #expect(configuration.clientAddress.trustedProxies == [IPRange("10.0.0.0/8"), IPRange("::1")].compactMap { $0 })
        #expect(configuration.clientAddress.header == .forwarded)
        #expect(configuration.quota.storedBytes == 5_000_000 && configuration.quota.pushBytesPerMinute == 3_000_000)
        #expect(configuration.connections.maxConnections == 64)
        #expect(configuration.connections.idleTimeout == 5 && configuration.connections.bodyTimeout == 7)
        #expect(configuration.connections.maxConnectionsPerAddress == 6 && configuration.connections.headerTimeout == 4)
        #expect(configuration.bcrypt.concurrency == 3)
        #expect(configuration.databaseConnections == 16)
    }

    @Test(
        "bad values are refused by name",
        arguments: [
            ("WDIET_ENV", "staging"), ("WDIET_LISTEN", "8090"), ("WDIET_LISTEN", "host:99999"), ("WDIET_DATABASE_URL", "mysql://x@y/z"),
            ("WDIET_MIGRATION_DATABASE_URL", "postgres://user@host"), ("WDIET_TOKEN_KEY", "c2hvcnQ="), ("WDIET_BCRYPT_COST", "3"),
            ("WDIET_APPLE_JWKS", "/no/such/file.json"), ("WDIET_TRUSTED_PROXIES", "10.0.0.0/33"), ("WDIET_TRUSTED_PROXIES", "proxy.local"),
            ("WDIET_PROXY_HEADER", "X-Real-IP"), ("WDIET_USER_QUOTA_BYTES", "0"), ("WDIET_PUSH_BYTES_PER_MINUTE", "1000"),
            ("WDIET_MAX_CONNECTIONS", "many"), ("WDIET_IDLE_TIMEOUT", "0"), ("WDIET_BODY_TIMEOUT", "-1"), ("WDIET_BCRYPT_CONCURRENCY", "0"),
            ("WDIET_DATABASE_CONNECTIONS", "0"), ("WDIET_DATABASE_CONNECTIONS", "1001"), ("WDIET_MAX_CONNECTIONS_PER_ADDRESS", "0"),
            ("WDIET_HEADER_TIMEOUT", "ten"),
        ]
    )
    func badValues(variable: String, value: String) {
        do {
            _ = try ServerConfiguration(environment: [variable: value])
            Issue.record("\(variable)=\(value) was accepted")
        } catch let ConfigurationError.invalid(name, _) {
            #expect(name == variable)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("the SQL splitter keeps dollar-quoted bodies, strings and comments whole")
    func splitter() {
        let statements = SQLScript.statements(
            """
            -- a comment; with a semicolon
            CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;
            INSERT INTO t VALUES ('a;b', "c;d"); /* block; comment */
            DO $body$ BEGIN PERFORM 1; END $body$
            """
        )
        #expect(
            statements == [
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$",
                "INSERT INTO t VALUES ('a;b', \"c;d\")",
                "DO $body$ BEGIN PERFORM 1; END $body$",
            ]
        )
    }

    @Test("five servers starting at once apply each migration exactly once")
    func concurrentStartups() async throws {
        let configuration = try await ServerHarness.configuration()
        let logger = Logger(label: "migrations")
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<5 {
                group.addTask { try await Migrator(logger: logger).migrate(configuration.migrationDatabaseURL, migrations: try Migrator.bundled()) }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(applied == (try Migrator.bundled().map(\.name)))
        try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
            for try await count in try await connection.query("SELECT count(*) FROM schema_migrations", logger: logger).decode(Int64.self) {
                #expect(count == Int64(try Migrator.bundled().count))
            }
        }
    }
}

@Suite("Passwords")
struct PasswordTests {
    @Test("bcrypt checks in constant time: the right password passes, a wrong one, a near miss and a damaged hash fail")
    func verify() async throws {
        let passwords = Passwords(cost: 4)
        let hash = try await passwords.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(try await passwords.verify("correct horse battery", hash: hash))
        #expect(try await passwords.verify("correct horse batterY", hash: hash) == false)
        #expect(try await passwords.verify("correct horse battery", hash: String(hash.dropLast())) == false)
        #expect(try await passwords.verify("correct horse battery", hash: "not a hash") == false)
        #expect(try await passwords.verify("correct horse battery", hash: nil) == false)
        #expect(Credentials.problem(withNewPassword: "short") != nil)
        #expect(Credentials.problem(withNewPassword: "long enough password") == nil)
        // Lengths count code points, as the OpenAPI document's minLength does: five accented
        // letters written with combining marks are ten.
        #expect(Credentials.problem(withNewPassword: String(repeating: "e\u{301}", count: 5)) == nil)
    }
}
