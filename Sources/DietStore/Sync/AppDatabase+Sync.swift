import DietCore
import Foundation
import GRDB
import SyncProtocol

/// What the store holds of its sync with a server.
public struct SyncStatus: Hashable, Sendable {
    /// Changes waiting for upload.
    public let pending: Int
    /// Changes the server refused, with its reason; they stay until the row is written again.
    public let rejected: [RejectedChange]
    /// Pulled changes this device could not store, with the reason.
    public let setAside: [SetAsideChange]
    public let lastSyncAt: Date?
    public let cursor: Int64
    public let deviceID: String
    /// The account this store's data belongs to, once it has synced.
    public let accountID: UUID?
}

public struct RejectedChange: Hashable, Sendable {
    public let table: String
    public let rowID: String
    public let reason: String
}

extension SyncStatus {
    /// One line per change that did not sync (refused by the server, or set aside here), with
    /// its reason, for `wdiet sync --status` and the web app's settings.
    public func problemLines(_ l: Localizer) -> [String] {
        rejected.map { l.text("cli.sync.rejected", ["table": .text($0.table), "id": .text($0.rowID), "reason": .text($0.reason)]) }
            + setAside.map { l.text("cli.sync.setAsideRow", ["table": .text($0.table), "id": .text($0.rowID), "reason": .text($0.reason)]) }
    }
}

/// A pulled change this device could not store, kept aside with the reason.
public struct SetAsideChange: Hashable, Sendable {
    public let table: String
    public let rowID: String
    public let reason: String
}

/// What merging a page did.
public struct MergeOutcome: Hashable, Sendable {
    public var applied = 0
    /// Older than the local row, or a replay.
    public var ignored = 0
    /// Rows this device cannot store (see `SetAsideChange`); the cursor moves past them.
    public var setAside = 0

    public init(applied: Int = 0, ignored: Int = 0, setAside: Int = 0) {
        self.applied = applied
        self.ignored = ignored
        self.setAside = setAside
    }
}

extension AppDatabase {
    /// The oldest `limit` changes waiting for upload (refused ones excluded).
    public func pendingChanges(limit: Int) throws -> [Change] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT table_name, row_id, hlc, deleted, row FROM sync_outbox WHERE rejected IS NULL ORDER BY seq LIMIT ?
                    """,
                arguments: [limit]
            ).compactMap { row -> Change? in
                guard let table = SyncTable(rawValue: row["table_name"]), let id = UUID(uuidString: row["row_id"]),
                    let hlc = HLC(row["hlc"] as String),
                    let value = try? JSONDecoder().decode(JSONValue.self, from: Data((row["row"] as String).utf8))
                else { return nil }
                return Change(table: table, id: id, hlc: hlc, deleted: row["deleted"], row: value)
            }
        }
    }

    /// Takes the server's answer to a push: applied and ignored changes leave the outbox,
    /// refused ones stay with the reason. A row written again since the push keeps its newer
    /// pending change (matched by stamp).
    public func acknowledge(pushed: [Change], results: [PushResult]) throws {
        try writer.write { db in
            for (change, result) in zip(pushed, results) where change.id == result.id && change.table == result.table {
                let key: StatementArguments = [change.table.rawValue, change.id.uuidString, change.hlc.description]
                switch result.status {
                case .applied, .ignored:
                    try db.execute(sql: "DELETE FROM sync_outbox WHERE table_name = ? AND row_id = ? AND hlc = ?", arguments: key)
                case .rejected:
                    try db.execute(
                        sql: "UPDATE sync_outbox SET rejected = ? WHERE table_name = ? AND row_id = ? AND hlc = ?",
                        arguments: [result.message ?? "refused by the server"] + key
                    )
                }
            }
        }
    }

    /// Merges one pulled page and advances the cursor, in one transaction: a crash keeps
    /// either the whole page or none of it. Each change wins only if its stamp is newer than
    /// the local row's; this device's clock moves past every stamp it sees.
    @discardableResult
    public func merge(_ page: PullResponse) throws -> MergeOutcome {
        let now = clock.now()
        return try writer.write { db in
            var outcome = MergeOutcome()
            for change in page.changes {
                switch try Self.merge(change, db) {
                case .applied: outcome.applied += 1
                case .ignored: outcome.ignored += 1
                case .setAside(let reason):
                    try Self.setAside(change, reason: reason, at: now, db)
                    outcome.setAside += 1
                }
            }
            if let newest = page.changes.map(\.hlc).max() { try Self.advanceClock(past: newest, now: now, db) }
            try SyncState.set(.pullCursor, String(page.nextCursor), in: db)
            return outcome
        }
    }

    /// The cursor of the next pull.
    public func pullCursor() throws -> Int64 {
        try reader.read { db in try SyncState.value(.pullCursor, in: db).flatMap { Int64($0) } ?? 0 }
    }

    /// Notes a sync that completed.
    public func recordSuccessfulSync() throws {
        let now = clock.now()
        try writer.write { db in try SyncState.set(.lastSyncAt, StoreFormat.instant(now), in: db) }
    }

    /// Binds this store's data to an account. Refuses another account once bound: the data
    /// of one person must never flow into someone else's account.
    public func bindAccount(_ userID: UUID) throws {
        try writer.write { db in
            if let bound = try SyncState.value(.accountID, in: db), bound != userID.uuidString {
                throw StoreError.boundToAnotherAccount
            }
            try SyncState.set(.accountID, userID.uuidString, in: db)
        }
    }

    public func syncStatus() throws -> SyncStatus {
        try reader.read { db in
            let pending = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE rejected IS NULL") ?? 0
            let rejected = try Row.fetchAll(
                db,
                sql: """
                    SELECT table_name, row_id, rejected FROM sync_outbox WHERE rejected IS NOT NULL ORDER BY seq
                    """
            ).map { RejectedChange(table: $0["table_name"], rowID: $0["row_id"], reason: $0["rejected"]) }
            let setAside = try Row.fetchAll(
                db,
                sql: """
                    SELECT table_name, row_id, reason FROM sync_set_aside ORDER BY received_at, table_name, row_id
                    """
            ).map { SetAsideChange(table: $0["table_name"], rowID: $0["row_id"], reason: $0["reason"]) }
            return SyncStatus(
                pending: pending,
                rejected: rejected,
                setAside: setAside,
                lastSyncAt: try SyncState.value(.lastSyncAt, in: db).flatMap(StoreFormat.instant),
                cursor: try SyncState.value(.pullCursor, in: db).flatMap { Int64($0) } ?? 0,
                deviceID: try SyncState.value(.deviceID, in: db) ?? "",
                accountID: try SyncState.value(.accountID, in: db).flatMap(UUID.init(uuidString:))
            )
        }
    }

    /// What became of one pulled change.
    private enum MergeResult {
        case applied, ignored
        case setAside(String)
    }

    /// Checks the change against the row contract, the stored stamp, the record's reading and
    /// the schema, in that order; a change that fails any of them is set aside, never thrown:
    /// one bad row must not roll back its page and stop the pull for good.
    private static func merge(_ change: Change, _ db: Database) throws -> MergeResult {
        if let violation = RowContract.violation(in: change, now: nil) { return .setAside(violation.description) }
        guard let type = recordType(change.table) else {
            return .setAside("\(change.table.rawValue): this version does not keep these rows")
        }
        let stored = try String.fetchOne(
            db,
            sql: "SELECT updated_hlc FROM \(type.databaseTableName) WHERE id = ?",
            arguments: [change.id.uuidString]
        )
        guard MergeRule.shouldApply(incoming: change.hlc, stored: stored.flatMap(HLC.init)) else { return .ignored }
        if case .failure(let problem) = try store(change, as: type, db) {
            return .setAside("\(type.databaseTableName): \(problem.reason)")
        }
        // A local change of the row still waiting for upload has lost: the server holds newer.
        let key: StatementArguments = [change.table.rawValue, change.id.uuidString, change.hlc.description]
        try db.execute(sql: "DELETE FROM sync_outbox WHERE table_name = ? AND row_id = ? AND hlc < ?", arguments: key)
        try db.execute(sql: "DELETE FROM sync_set_aside WHERE table_name = ? AND row_id = ? AND hlc <= ?", arguments: key)
        return .applied
    }

    /// Why a row that keeps the contract still cannot be stored.
    struct StoreProblem: Error {
        let reason: String
    }

    static func recordType(_ table: SyncTable) -> (any SyncedRecord.Type)? {
        switch table {
        case .profile: ProfileRecord.self
        case .cycleStates: CycleStateRecord.self
        case .mealLogs: MealRecord.self
        case .weightEntries: WeightRecord.self
        case .analyticsEvents: EventRecord.self
        case .customFoods: CustomFoodRecord.self
        case .recipes: RecipeRecord.self
        case .mindfulMeals: MindfulMealRecord.self
        case .whoopRecords: WhoopRecordRecord.self
        case .calendarSources: CalendarSourceRecord.self
        case .briefingSettings: nil
        }
    }

    /// Moves this device's clock past `newest`, a stamp it received (pulled or restored), so
    /// its later edits of those rows stamp after them and win.
    static func advanceClock(past newest: HLC, now: Date, _ db: Database) throws {
        guard let device = try SyncState.value(.deviceID, in: db) else { throw StoreError.missingDeviceID }
        var clock = HybridLogicalClock(deviceID: device, last: try SyncState.value(.lastHLC, in: db).flatMap(HLC.init))
        clock.receive(newest, now: now)
        try SyncState.set(.lastHLC, clock.last.description, in: db)
    }

    /// Saves the change's row as it is (its id, stamp and tombstone flag) when the app can read
    /// it and the schema accepts it, inside a savepoint so a refusal leaves nothing behind.
    /// `isNew`: the caller knows no row has its id (a restore), so it is inserted without
    /// trying an update first.
    static func store(_ change: Change, isNew: Bool = false, _ db: Database) throws -> Result<any SyncedRecord, StoreProblem> {
        guard let type = recordType(change.table) else { return .failure(StoreProblem(reason: "this version does not keep these rows")) }
        return try store(change, as: type, isNew: isNew, db)
    }

    private static func store<Record: SyncedRecord>(
        _ change: Change,
        as _: Record.Type,
        isNew: Bool = false,
        _ db: Database
    ) throws -> Result<any SyncedRecord, StoreProblem> {
        guard case var .object(fields) = change.row else { return .failure(StoreProblem(reason: "the row is not a JSON object")) }
        fields["id"] = .string(change.id.uuidString)
        fields["updated_hlc"] = .string(change.hlc.description)
        fields["deleted"] = .bool(change.deleted)
        guard let record = try? JSONDecoder().decode(Record.self, from: JSONEncoder().encode(JSONValue.object(fields))) else {
            return .failure(StoreProblem(reason: "this version cannot read the row"))
        }
        if let problem = record.unreadableReason { return .failure(StoreProblem(reason: problem)) }
        do {
            try db.inSavepoint {
                if isNew { try record.insert(db) } else { try record.save(db) }
                return .commit
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return .failure(StoreProblem(reason: "the store refused the row (\(error.message ?? "a constraint failed"))"))
        }
        return .success(record)
    }

    /// Keeps a change that could not be stored, the newest per row, with the reason.
    private static func setAside(_ change: Change, reason: String, at now: Date, _ db: Database) throws {
        let row = String(decoding: try JSONEncoder.store.encode(change.row), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO sync_set_aside (table_name, row_id, hlc, deleted, row, reason, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (table_name, row_id) DO UPDATE SET
                  hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, reason = excluded.reason,
                  received_at = excluded.received_at
                WHERE excluded.hlc > sync_set_aside.hlc
                """,
            arguments: [
                change.table.rawValue, change.id.uuidString, change.hlc.description, change.deleted, row, reason,
                StoreFormat.instant(now),
            ]
        )
    }
}
