import DietCore
import Foundation
import GRDB
import SyncProtocol

/// Everything of the user as plain data: the rows of every user table, column by column.
/// The JSON file is `DataExport` encoded; each table is also written as CSV.
public struct DataExport: Hashable, Sendable, Codable {
    public static let formatName = "w-diet-export"
    public static let currentVersion = 1
    /// The user tables, in the order an import inserts them.
    public static let tables = ["profile", "cycle_states", "meal_logs", "weight_entries", "analytics_events", "custom_foods", "recipes"]

    public let format: String
    public let version: Int
    public let exportedAt: String
    /// Table name → rows; each row maps column names to values.
    public let tables: [String: [[String: JSONValue]]]

    enum CodingKeys: String, CodingKey {
        case format, version, tables
        case exportedAt = "exported_at"
    }
}

extension AppDatabase {
    /// Reads every user row in one transaction, so the export is a consistent snapshot.
    public func exportData() throws -> DataExport {
        let now = clock.now()
        return try reader.read { db in
            var tables: [String: [[String: JSONValue]]] = [:]
            for table in DataExport.tables {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
                tables[table] = rows.map { row in
                    Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, JSONValue(row[$0] as DatabaseValue)) })
                }
            }
            return DataExport(format: DataExport.formatName, version: DataExport.currentVersion,
                              exportedAt: StoreFormat.instant(now), tables: tables)
        }
    }

    /// Writes `w-diet.json` and one CSV per table into `folder` (created if missing), and
    /// records `data_exported`. Returns the files written.
    @discardableResult
    public func export(to folder: URL, timeZone: TimeZone) throws -> [URL] {
        let export = try exportData()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder.store
        encoder.outputFormatting.insert(.prettyPrinted)
        var files = [folder.appendingPathComponent("w-diet.json")]
        try encoder.encode(export).write(to: files[0], options: .atomic)
        for table in DataExport.tables {
            let url = folder.appendingPathComponent("\(table).csv")
            let columns = try reader.read { db in try db.columns(in: table).map(\.name) }
            try Data(CSV.render(columns: columns, rows: export.tables[table] ?? []).utf8).write(to: url, options: .atomic)
            files.append(url)
        }
        try record(.dataExported(format: "json+csv"), timeZone: timeZone)
        return files
    }

    /// Restores an export into this database, which must hold no user data. Every row is
    /// inserted as it was (same ids and stamps) and queued for sync, in one transaction:
    /// a bad file changes nothing.
    public func importData(_ export: DataExport) throws {
        guard export.format == DataExport.formatName else {
            throw StoreError.importRefused(reason: "not a w-diet export (format \(export.format))")
        }
        guard export.version <= DataExport.currentVersion else {
            throw StoreError.importRefused(reason: "export version \(export.version) is newer than this app")
        }
        if let unknown = Set(export.tables.keys).subtracting(DataExport.tables).sorted().first {
            throw StoreError.importRefused(reason: "unknown table \(unknown)")
        }
        try writer.write { db in
            for table in DataExport.tables where try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") != 0 {
                throw StoreError.importRefused(reason: "the database already holds \(table) rows")
            }
            for table in DataExport.tables {
                try insert(export.tables[table] ?? [], into: table, db)
            }
        }
    }

    private func insert(_ rows: [[String: JSONValue]], into table: String, _ db: Database) throws {
        let known = Set(try db.columns(in: table).map(\.name))
        for (index, row) in rows.enumerated() {
            if let extra = Set(row.keys).subtracting(known).sorted().first {
                throw StoreError.importRefused(reason: "\(table) row \(index + 1): unknown column \(extra)")
            }
            let columns = row.keys.sorted()
            let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            do {
                try db.execute(sql: sql, arguments: StatementArguments(columns.map { row[$0]?.databaseValue ?? .null }))
            } catch let error as DatabaseError {
                throw StoreError.importRefused(reason: "\(table) row \(index + 1): \(error.message ?? "invalid")")
            }
            try queue(table: table, row: row, db)
        }
    }

    /// Queues an imported row for upload with its original stamp.
    private func queue(table: String, row: [String: JSONValue], _ db: Database) throws {
        guard let id = row["id"]?.stringValue, let hlc = row["updated_hlc"]?.stringValue else {
            throw StoreError.importRefused(reason: "\(table): a row lacks id or updated_hlc")
        }
        var payload = row
        for key in ["id", "updated_hlc", "deleted"] { payload[key] = nil }
        let json = try String(decoding: JSONEncoder.store.encode(JSONValue.object(payload)), as: UTF8.self)
        try db.execute(sql: """
            INSERT INTO sync_outbox (table_name, row_id, hlc, deleted, row, created_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (table_name, row_id) DO UPDATE SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row
            """, arguments: [table, id, hlc, row["deleted"]?.doubleValue == 1, json, StoreFormat.instant(clock.now())])
    }

    /// Deletes every row of the user from every table, then compacts the file so nothing
    /// lingers in free pages. The next open starts as a new device.
    public func purge() throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' AND name NOT LIKE 'sqlite_%'
                    """)
                for table in tables { try db.execute(sql: "DELETE FROM \(table)") }
                try db.execute(sql: "DELETE FROM sqlite_sequence")
                return .commit
            }
            try db.execute(sql: "VACUUM")
        }
    }
}

extension JSONValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .blob(let data): self = .string(data.base64EncodedString())
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let flag): flag.databaseValue
        case .number(let number): number.rounded() == number && abs(number) < 9e15 ? Int64(number).databaseValue : number.databaseValue
        case .string(let text): text.databaseValue
        case .array, .object: (try? String(decoding: JSONEncoder.store.encode(self), as: UTF8.self))?.databaseValue ?? .null
        }
    }
}
