@testable import DietServer
import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import Testing

@Suite("Server configuration and migrations")
struct ConfigurationTests {
    @Test("the environment is read with safe local defaults")
    func defaults() throws {
        let configuration = try ServerConfiguration(environment: [:])
        #expect(configuration.mode == .development)
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8090)
        #expect(configuration.databaseURL.username == "wdiet_app")
        #expect(configuration.bcryptCost == 12)
    }

    @Test("production refuses the development secrets, naming the variable")
    func productionNeedsSecrets() throws {
        #expect(throws: ConfigurationError.invalid("WDIET_JWT_SECRET", "must be set to a secret of at least 32 bytes in production")) {
            try ServerConfiguration(environment: ["WDIET_ENV": "production"])
        }
        let secret = String(repeating: "s", count: 40)
        #expect(throws: ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be set in production")) {
            try ServerConfiguration(environment: ["WDIET_ENV": "production", "WDIET_JWT_SECRET": secret])
        }
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let fine = try ServerConfiguration(environment: ["WDIET_ENV": "production", "WDIET_JWT_SECRET": secret, "WDIET_TOKEN_KEY": key])
        #expect(fine.mode == .production)
    }

    @Test("bad values are refused by name", arguments: [
        ("WDIET_ENV", "staging"), ("WDIET_LISTEN", "8090"), ("WDIET_LISTEN", "host:99999"), ("WDIET_DATABASE_URL", "mysql://x@y/z"),
        ("WDIET_MIGRATION_DATABASE_URL", "postgres://user@host"), ("WDIET_TOKEN_KEY", "c2hvcnQ="), ("WDIET_BCRYPT_COST", "3"),
        ("WDIET_APPLE_JWKS", "/no/such/file.json"),
    ])
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
        let statements = SQLScript.statements("""
            -- a comment; with a semicolon
            CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;
            INSERT INTO t VALUES ('a;b', "c;d"); /* block; comment */
            DO $body$ BEGIN PERFORM 1; END $body$
            """)
        #expect(statements == [
            "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$",
            "INSERT INTO t VALUES ('a;b', \"c;d\")",
            "DO $body$ BEGIN PERFORM 1; END $body$",
        ])
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
        #expect(Passwords.problem(with: "short") != nil)
        #expect(Passwords.problem(with: "long enough password") == nil)
    }
}
