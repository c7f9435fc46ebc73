import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A w-diet export on its way back into a store, checked row by row while the file is read
/// and kept on disk, so a restore needs the same memory for 100 rows as for 10 million.
///
/// Every row is restored into a scratch store first: a private database with the app's
/// schema in a temporary file (SQLite unlinks it as it opens it). There it passes the very
/// checks a restore into the real store makes (the row contract, a record this version can
/// read, the schema's constraints) and a row id met twice is refused, so a bad file is refused
/// before anything of it reaches the store. `AppDatabase.restore(_:pacing:afterBatch:)` then
/// writes the rows in short batches.
///
/// Not thread-safe: one restore uses it on one thread.
public final class RestoreStaging {
    private let scratch: AppDatabase
    private let now: Date
    /// Rows held in memory before they are checked into the scratch store in one transaction.
    private var pending: [(table: String, row: [String: JSONValue])] = []
    private var numbers: [String: Int] = [:]
    /// The rows staged so far.
    public private(set) var count = 0

    /// The page cache of the scratch store; the rest stays in its file.
    static let cacheKilobytes = 8 * 1024
    static let pendingLimit = 2_000

    /// Stages rows for `store`, checked against its clock's time.
    public convenience init(for store: AppDatabase) throws {
        try self.init(now: store.clock.now())
    }

    /// - Parameter now: the time the row contract checks stamps against.
    init(now: Date) throws {
        var configuration = AppDatabase.configuration
        configuration.label = "w-diet.restore-staging"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(Self.cacheKilobytes)")
        }
        // An empty path: a private database in a temporary file, deleted when it is closed.
        scratch = try AppDatabase(DatabaseQueue(path: "", configuration: configuration), clock: FixedInstant(now), deviceID: "restore")
        self.now = now
        try scratch.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE restore_rows (
                      seq INTEGER PRIMARY KEY, table_rank INTEGER NOT NULL, table_name TEXT NOT NULL, number INTEGER NOT NULL,
                      row_id TEXT NOT NULL, row TEXT NOT NULL,
                      UNIQUE (table_name, row_id)
                    );
                    CREATE INDEX restore_rows_in_order ON restore_rows (table_rank, seq);
                    """
            )
        }
    }

    /// Adds the next row of `table` (its number in the file's table counts from 1); refuses
    /// it (`StoreError.importRefused` naming the table, row and field) as a restore would.
    public func add(_ row: [String: JSONValue], table: String) throws {
        guard DataExport.tables.contains(table) else { throw StoreError.importRefused(reason: "unknown table \(table)") }
        pending.append((table, row))
        if pending.count >= Self.pendingLimit { try flush() }
    }

    /// Checks what `add` holds back; call once after the last row.
    public func finish() throws {
        try flush()
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        let rows = pending
        pending.removeAll(keepingCapacity: true)
        let now = now
        let first = numbers
        numbers = try scratch.writer.write { db in
            var numbers = first
            for (table, row) in rows {
                let number = (numbers[table] ?? 0) + 1
                numbers[table] = number
                let id = row["id"]?.stringValue ?? ""
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM restore_rows WHERE table_name = ? AND row_id = ?", arguments: [table, id]) == true {
                    throw StoreError.importRefused(reason: "\(table) row \(number), field id: \(id) is the id of an earlier row too")
                }
                _ = try AppDatabase.importRow(row, table: table, number: number, now: now, db)
                let text = String(decoding: try JSONEncoder.store.encode(JSONValue.object(row)), as: UTF8.self)
                try db.cachedStatement(sql: "INSERT INTO restore_rows (table_rank, table_name, number, row_id, row) VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [DataExport.tables.firstIndex(of: table), table, number, id, text])
            }
            return numbers
        }
        count += rows.count
    }

    /// A staged row: its table, its number among the file's rows of that table, its fields.
    struct StagedRow {
        let table: String
        let number: Int
        let fields: [String: JSONValue]
    }

    /// A position in the staged rows: the rows after it are still to be written.
    public struct Cursor: Sendable, Hashable {
        var rank = -1
        var seq: Int64 = 0
    }

    /// Up to `limit` staged rows after `cursor`, tables in the order of `DataExport.tables`,
    /// each table's rows in the order of the file, with the cursor after them.
    func rows(after cursor: Cursor, limit: Int) throws -> (rows: [StagedRow], next: Cursor) {
        try scratch.reader.read { db in
            var next = cursor
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT table_rank, seq, table_name, number, row FROM restore_rows
                        WHERE (table_rank, seq) > (?, ?) ORDER BY table_rank, seq LIMIT ?
                        """
                ),
                arguments: [cursor.rank, cursor.seq, limit]
            ).map { row in
                next = Cursor(rank: row[0], seq: row[1])
                guard case .object(let fields) = try JSONDecoder().decode(JSONValue.self, from: Data((row[4] as String).utf8)) else {
                    throw StoreError.importRefused(reason: "the restore's staging is damaged")
                }
                return StagedRow(table: row[2], number: row[3], fields: fields)
            }
            return (rows, next)
        }
    }
}

/// What a restore wrote.
public struct RestoreOutcome: Hashable, Sendable {
    /// Rows written into the store.
    public var restored = 0
    /// Rows already there from an earlier, interrupted restore of the same export.
    public var alreadyThere = 0

    public init() {}
}

extension AppDatabase {
    static let restoreInProgressKey = "restore_in_progress"

    /// Writes the rows of `staging` into this store, which must hold no user data, in
    /// batches (`ImportPacing`, so other writers wait at most about one batch): each row as it
    /// was (same id and stamps) and queued for sync, and this device's clock moved past the
    /// newest stamp so later edits win.
    ///
    /// Exactly once: the store notes which export it is restoring (`export`, e.g. its
    /// `exported_at` and row count) with the first batch and forgets it with the last. A restore
    /// that stopped between batches can be run again with the same export: rows already
    /// there are left alone and the rest is added. Another export is refused until then.
    @discardableResult
    public func restore(
        _ staging: RestoreStaging,
        export: String,
        pacing: ImportPacing = .default,
        afterBatch: ((RestoreOutcome) throws -> Void)? = nil
    ) throws -> RestoreOutcome {
        let now = clock.now()
        var outcome = RestoreOutcome()
        var cursor = RestoreStaging.Cursor()
        let next = { (limit: Int) throws -> [RestoreStaging.StagedRow]? in
            let (rows, after) = try staging.rows(after: cursor, limit: limit)
            cursor = after
            return rows.isEmpty ? nil : rows
        }
        try pacing.run(next: next, rows: \.count) { rows in
            let written = try writer.write { db in
                try Self.claimRestore(of: export, db)
                var written = RestoreOutcome()
                var newest: HLC?
                for row in rows {
                    if let id = row.fields["id"]?.stringValue,
                        try Bool.fetchOne(db, sql: "SELECT 1 FROM \(row.table) WHERE id = ?", arguments: [id]) == true
                    {
                        written.alreadyThere += 1
                        continue
                    }
                    let stamp = try Self.importRow(row.fields, table: row.table, number: row.number, now: now, db)
                    newest = max(newest ?? stamp, stamp)
                    written.restored += 1
                }
                if let newest { try Self.advanceClock(past: newest, now: now, db) }
                return written
            }
            outcome.restored += written.restored
            outcome.alreadyThere += written.alreadyThere
            try afterBatch?(outcome)
        }
        try writer.write { db in
            try Self.claimRestore(of: export, db)
            try db.execute(sql: "DELETE FROM device_settings WHERE key = ?", arguments: [Self.restoreInProgressKey])
        }
        return outcome
    }

    /// Inside a batch's transaction: the store is restoring `export` already, or holds no user
    /// data and now notes that it is.
    private static func claimRestore(of export: String, _ db: Database) throws {
        let noted = try String.fetchOne(db, sql: "SELECT value FROM device_settings WHERE key = ?", arguments: [restoreInProgressKey])
        if noted == export { return }
        if noted != nil {
            throw StoreError.importRefused(
                reason: "a restore of another export (\(noted ?? "")) was interrupted; run it again with that export to finish it"
            )
        }
        for table in DataExport.tables where try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") != 0 {
            throw StoreError.importRefused(reason: "the database already holds \(table) rows")
        }
        try db.execute(sql: "INSERT INTO device_settings (key, value) VALUES (?, ?)", arguments: [restoreInProgressKey, export])
    }
}

/// The one instant the scratch store of a restore stamps with.
private struct FixedInstant: DietCore.Clock {
    let instant: Date
    init(_ instant: Date) { self.instant = instant }
    func now() -> Date { instant }
}
