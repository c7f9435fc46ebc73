import Foundation
import Logging
import PostgresNIO

/// Applies the SQL files in `Resources/migrations` in name order (they start with a
/// timestamp), each in its own transaction, recording it in `schema_migrations`. A
/// session-level advisory lock makes concurrent start-ups take turns, so none is applied twice.
struct Migrator {
    struct Migration: Sendable {
        let name: String
        let sql: String
    }

    enum Failure: Error, CustomStringConvertible {
        case missingResources
        case failed(String, String)

        var description: String {
            switch self {
            case .missingResources: "The migrations are missing from the server's resources."
            case let .failed(name, reason): "Migration \(name) failed: \(reason)"
            }
        }
    }

    /// An arbitrary constant: the key of the advisory lock all start-ups share.
    static let lockKey: Int64 = 0x7764_6965_745f_6d67

    let logger: Logger

    static func bundled() throws -> [Migration] {
        guard let directory = Bundle.module.url(forResource: "migrations", withExtension: nil, subdirectory: "Resources") else {
            throw Failure.missingResources
        }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { Migration(name: $0.deletingPathExtension().lastPathComponent, sql: try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// Applies what is missing; returns the names applied now.
    @discardableResult
    func migrate(_ url: DatabaseURL, migrations: [Migration]) async throws -> [String] {
        try await url.withConnection(logger: logger) { connection in try await migrate(connection, migrations: migrations) }
    }

    private func migrate(_ connection: PostgresConnection, migrations: [Migration]) async throws -> [String] {
        try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
              name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
            """,
            logger: logger
        )
        var done = Set<String>()
        for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger).decode(String.self) {
            done.insert(name)
        }
        var appliedNow: [String] = []
        for migration in migrations where !done.contains(migration.name) {
            do {
                try await connection.withTransaction(logger: logger) { connection in
                    for statement in SQLScript.statements(migration.sql) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger: logger)
                }
            } catch let error as PSQLError {
                throw Failure.failed(migration.name, error.serverInfo?[.message] ?? String(describing: error))
            }
            logger.info("applied migration", metadata: ["name": "\(migration.name)"])
            appliedNow.append(migration.name)
        }
        try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
        return appliedNow
    }
}
