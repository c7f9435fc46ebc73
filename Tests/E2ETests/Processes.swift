import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built executables and the PostgreSQL cluster of `scripts/test`.
enum E2E {
    static let products = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug")
    static let wdiet = products.appendingPathComponent("wdiet").path
    static let server = products.appendingPathComponent("wdiet-server").path
    static let logger = Logger(label: "e2e")

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `wdiet` to the end.
    static func run(_ arguments: [String], environment: [String: String]) throws -> Output {
        let output = try ChildProcess.run(URL(fileURLWithPath: wdiet), arguments, environment: environment)
        return Output(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    /// A connection to `database` as the superuser of the cluster scripts/with-postgres started.
    static func withConnection<T: Sendable>(database: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        var url = try ServerHarness.adminURL()
        url.database = database
        return try await ServerHarness.withConnection(url, body)
    }

}

enum E2EError: Error {
    case serverDidNotStart(String)
}

/// A `wdiet-server` process on its own database and port, stoppable and restartable.
final class ServerProcess {
    let database: String
    let host: String
    let port: Int
    /// Variables added to the server's environment.
    let environment: [String: String]
    private var process: ChildProcess.Running?
    private let log: URL

    var url: String { "http://\(host):\(port)" }
    var processIdentifier: Int32? { process?.processIdentifier }

    /// A server listening on `host` (loopback, or an address of a test's own network namespace).
    init(folder: URL, host: String = "127.0.0.1", environment: [String: String] = [:]) async throws {
        database = "e2e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        self.host = host
        self.environment = environment
        port = Loopback.freePort()
        log = folder.appendingPathComponent("server.log")
        let name = database
        _ = try await E2E.withConnection(database: "postgres") { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: E2E.logger)
        }
    }

    func start() async throws {
        let admin = try ServerHarness.adminURL()
        let base = "postgres://%@@\(admin.host):\(admin.port)/\(database)"
        process = try ChildProcess.start(
            URL(fileURLWithPath: E2E.server),
            environment: [
                "WDIET_DATABASE_URL": String(format: base, "wdiet_app"), "WDIET_MIGRATION_DATABASE_URL": String(format: base, "postgres"),
                "WDIET_LISTEN": "\(host):\(port)", "WDIET_BCRYPT_COST": "4", "WDIET_ENV": "development",
            ].merging(environment) { _, added in added },
            log: log
        )
        for _ in 0..<100 {
            if let health = URL(string: url + "/health"), let (_, response) = try? await URLSession.shared.data(from: health),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw E2EError.serverDidNotStart((try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    func stop() {
        process?.stop()
        process = nil
    }

    deinit {
        stop()
    }
}
