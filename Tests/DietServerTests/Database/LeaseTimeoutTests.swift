import Foundation
import Hummingbird
import PostgresNIO
import ServerTestSupport
import TestSupport
import Testing

@testable import DietServer

/// A request waits a bounded time for a database connection, then is told the database is out
/// of reach; a statement already running is not cut short.
@Suite("Database connection wait")
struct LeaseTimeoutTests {
    /// Runs `body` with a pool on `url` whose requests wait at most `leaseTimeout`.
    static func withDatabase(
        _ url: DatabaseURL,
        connections: Int = 2,
        leaseTimeout: Duration,
        _ body: (ServerDatabase) async throws -> Void
    ) async throws {
        let database = ServerDatabase(url, maximumConnections: connections, leaseTimeout: leaseTimeout, logger: ServerHarness.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await database.client.run() }
            defer { group.cancelAll() }
            try await body(database)
        }
    }

    @Test("with no database listening, a request is answered 503 database_unreachable after the wait, and /ready's check fails")
    func noDatabase() async throws {
        let url = DatabaseURL(host: "127.0.0.1", port: Loopback.freePort(), username: "wdiet_app", password: nil, database: "wdiet")
        try await Self.withDatabase(url, leaseTimeout: .milliseconds(500)) { database in
            let clock = ContinuousClock()
            let started = clock.now
            do {
                _ = try await database.withoutUser { connection in try await connection.query("SELECT 1", logger: ServerHarness.logger) }
                Issue.record("a query ran without a database")
            } catch let error as APIError {
                #expect(error.status == .serviceUnavailable)
                #expect(error.code == "database_unreachable")
                #expect(error.headers[.retryAfter] == "5")
            }
            // The wait is bounded (0.5 s here); before, it lasted until the pool gave up, 28–68 s.
            #expect(clock.now - started < .seconds(20))
            #expect(await database.isReachable(within: .milliseconds(300)) == false)
        }
    }

    @Test("a statement that runs longer than the wait for a connection is not cut short")
    func longStatementCompletes() async throws {
        let configuration = try await ServerHarness.configuration()
        _ = try await Migrator(logger: ServerHarness.logger).migrate(configuration.migrationDatabaseURL, migrations: try Migrator.bundled())
        try await Self.withDatabase(configuration.databaseURL, leaseTimeout: .milliseconds(300)) { database in
            // A connection open first: opening one under load may itself take longer than the wait.
            #expect(await database.isReachable(within: .seconds(30)))
            let slept = try await database.withoutUser { connection in
                var done = false
                for try await _ in try await connection.query("SELECT pg_sleep(0.8)", logger: ServerHarness.logger) { done = true }
                return done
            }
            #expect(slept)
            #expect(await database.isReachable(within: .seconds(2)))
        }
    }

    @Test("requests queued behind a busy pool wait past the timeout while it serves others, and all complete")
    func busyPoolWaitsOn() async throws {
        let configuration = try await ServerHarness.configuration()
        _ = try await Migrator(logger: ServerHarness.logger).migrate(configuration.migrationDatabaseURL, migrations: try Migrator.bundled())
        // One connection, ten statements of 0.2 s each: the last waits about two seconds, twice
        // the 1 s wait, while the pool hands the connection on every 0.2 s.
        try await Self.withDatabase(configuration.databaseURL, connections: 1, leaseTimeout: .seconds(1)) { database in
            #expect(await database.isReachable(within: .seconds(30)))
            let done = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await database.withoutUser { connection in
                            for try await _ in try await connection.query("SELECT pg_sleep(0.2)", logger: ServerHarness.logger) {}
                            return true
                        }
                    }
                }
                var done = 0
                for try await finished in group where finished { done += 1 }
                return done
            }
            #expect(done == 10)
        }
    }
}
