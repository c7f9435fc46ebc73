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
    public static let tables = [
        "profile", "cycle_states", "meal_logs", "weight_entries", "analytics_events", "custom_foods", "recipes",
        "mindful_meals", "calendar_sources", "whoop_records",
    ]

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
            return DataExport(
                format: DataExport.formatName,
                version: DataExport.currentVersion,
                exportedAt: StoreFormat.instant(now),
                tables: tables
            )
        }
    }

    /// Writes `w-diet.json` and one CSV per table into `folder` (created owner-only if
    /// missing), each file readable by its owner only (it holds health data), and records
    /// `data_exported`. Returns the files written.
    @discardableResult
    public func export(to folder: URL, timeZone: TimeZone) throws -> [URL] {
        let export = try exportData()
        try OwnerOnlyFile.createFolder(folder)
        let encoder = JSONEncoder.store
        encoder.outputFormatting.insert(.prettyPrinted)
        var files = [folder.appendingPathComponent("w-diet.json")]
        try OwnerOnlyFile.write(encoder.encode(export), to: files[0])
        for table in DataExport.tables {
            let url = folder.appendingPathComponent("\(table).csv")
            let columns = try reader.read { db in try db.columns(in: table).map(\.name) }
            try OwnerOnlyFile.write(Data(CSV.render(columns: columns, rows: export.tables[table] ?? []).utf8), to: url)
            files.append(url)
        }
        try record(.dataExported(format: "json+csv"), timeZone: timeZone)
        return files
    }

    /// Restores an export held in memory into this database, which must hold no user data:
    /// `RestoreStaging` checks every row (a bad one refuses the export with the table, row,
    /// field and reason, and changes nothing), then `restore(_:export:pacing:afterBatch:)`
    /// stores them as they were (same ids and stamps), queued for sync. A file is restored
    /// without reading it whole by `Importer` (DietImport).
    public func importData(_ export: DataExport) throws {
        try Self.checkHeader(format: export.format, version: export.version)
        if let unknown = Set(export.tables.keys).subtracting(DataExport.tables).sorted().first {
            throw StoreError.importRefused(reason: "unknown table \(unknown)")
        }
        let staging = try RestoreStaging(for: self)
        for table in DataExport.tables {
            for row in export.tables[table] ?? [] { try staging.add(row, table: table) }
        }
        try staging.finish()
        try restore(staging, export: "\(export.exportedAt), \(staging.count) rows")
    }

    /// Refuses an export that is not w-diet's or is newer than this app.
    public static func checkHeader(format: String, version: Int) throws {
        guard format == DataExport.formatName else {
            throw StoreError.importRefused(reason: "not a w-diet export (format \(format))")
        }
        guard version <= DataExport.currentVersion else {
            throw StoreError.importRefused(reason: "export version \(version) is newer than this app")
        }
    }

    /// Checks and stores one exported row with its stamp, and queues it; returns the stamp.
    /// No row of the store may have its id (the callers make sure).
    static func importRow(_ row: [String: JSONValue], table: String, number: Int, now: Date, _ db: Database) throws -> HLC {
        func refuse(_ field: String?, _ reason: String) -> StoreError {
            .importRefused(reason: "\(table) row \(number)\(field.map { ", field \($0)" } ?? ""): \(reason)")
        }
        guard let syncTable = SyncTable(rawValue: table) else { throw refuse(nil, "not a synced table") }
        guard let text = row["id"]?.stringValue, let id = UUID(uuidString: text) else {
            throw refuse("id", "must be a UUID; got \(RowContract.shown(row["id"] ?? .null))")
        }
        guard let stampText = row["updated_hlc"]?.stringValue, let stamp = HLC(stampText) else {
            throw refuse("updated_hlc", "must be a clock stamp such as 0001795000000000-0000-device")
        }
        let deleted: Bool
        switch row["deleted"] {
        case .number(0)?, .bool(false)?, nil: deleted = false
        case .number(1)?, .bool(true)?: deleted = true
        default: throw refuse("deleted", "must be 0 or 1")
        }
        var payload = row
        for key in ["id", "updated_hlc", "deleted"] { payload[key] = nil }
        let change = Change(table: syncTable, id: id, hlc: stamp, deleted: deleted, row: .object(payload))
        if let violation = RowContract.violation(in: change, now: now) { throw refuse(violation.field, violation.reason) }
        switch try Self.store(change, isNew: true, db) {
        case .success(let record):
            try Outbox.enqueue(record, db, now: now)
            return stamp
        case .failure(let problem):
            throw refuse(nil, problem.reason)
        }
    }

    /// Deletes every row of the user from every table, then compacts the file so nothing
    /// lingers in free pages. The next open starts as a new device.
    public func purge() throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                let tables = try String.fetchAll(
                    db,
                    sql: """
                        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' AND name NOT LIKE 'sqlite_%'
                        """
                )
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
