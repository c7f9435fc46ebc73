import Foundation
import SyncProtocol

/// The practical ceiling of a push: the same rows written straight into `sync_rows` by psql
/// as the database superuser (no HTTP, no JSON, no row-level security, no checks), on the same
/// PostgreSQL with the same durability settings. Each run writes them for a user of its own.
struct Ceiling {
    let psql: String
    let port: Int
    let database: String

    /// Rows per second of one INSERT … ON CONFLICT of all `rows` in one transaction, psql's
    /// start-up included (the definition the ratio uses).
    func oneStatement(_ rows: [Change]) throws -> Double {
        try measure(rows, statements: [rows])
    }

    /// Rows per second of the same rows in transactions of `batch` rows on one psql session:
    /// what the server's batches of `batch` would cost with nothing but the INSERT.
    func batches(_ rows: [Change], of batch: Int) throws -> Double {
        try measure(rows, statements: stride(from: 0, to: rows.count, by: batch).map { Array(rows[$0..<min(rows.count, $0 + batch)]) })
    }

    private func measure(_ rows: [Change], statements: [[Change]]) throws -> Double {
        let user = UUID()
        let setup = "INSERT INTO users (id, email) VALUES ('\(user)', 'ceiling-\(user.uuidString.lowercased())@bench.example');"
        try shell(psql, ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-qc", setup])
        let encoder = JSONEncoder()
        var sql = ""
        for statement in statements {
            sql += "BEGIN;\nINSERT INTO sync_rows AS s (user_id, table_name, id, hlc, deleted, row, seq) VALUES\n"
            sql += try statement.map { change in
                let row = String(decoding: try encoder.encode(change.row), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
                return
                    "('\(user)', '\(change.table.rawValue)', '\(change.id)', '\(change.hlc)', \(change.deleted), '\(row)'::jsonb, nextval('sync_seq'))"
            }.joined(separator: ",\n")
            sql +=
                "\nON CONFLICT (user_id, table_name, id) DO UPDATE SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, seq = excluded.seq WHERE s.hlc < excluded.hlc;\nCOMMIT;\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-ceiling-\(getpid())-\(user).sql")
        try sql.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = ContinuousClock()
        let started = clock.now
        try shell(psql, ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-q", "-v", "ON_ERROR_STOP=1", "-f", file.path])
        return Double(rows.count) / seconds(clock.now - started)
    }
}
