import Foundation
import GRDB
import SyncProtocol

/// What the store holds of its sync with a server.
public struct SyncStatus: Hashable, Sendable {
    /// Changes waiting for upload.
    public let pending: Int
    /// Changes the server refused, with its reason; they stay until the row is written again.
    public let rejected: [RejectedChange]
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

/// What merging a page did.
public struct MergeOutcome: Hashable, Sendable {
    public var applied = 0
    /// Older than the local row, or a replay.
    public var ignored = 0
    /// Rows this version cannot read (a newer app's table or shape); the cursor moves past them.
    public var unreadable = 0

    public init(applied: Int = 0, ignored: Int = 0, unreadable: Int = 0) {
        self.applied = applied
        self.ignored = ignored
        self.unreadable = unreadable
    }
}

extension AppDatabase {
    /// The oldest `limit` changes waiting for upload (refused ones excluded).
    public func pendingChanges(limit: Int) throws -> [Change] {
        try reader.read { db in
            try Row.fetchAll(db, sql: """
                SELECT table_name, row_id, hlc, deleted, row FROM sync_outbox WHERE rejected IS NULL ORDER BY seq LIMIT ?
                """, arguments: [limit]).compactMap { row -> Change? in
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
                    try db.execute(sql: "UPDATE sync_outbox SET rejected = ? WHERE table_name = ? AND row_id = ? AND hlc = ?",
                                   arguments: [result.message ?? "refused by the server"] + key)
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
                case true?: outcome.applied += 1
                case false?: outcome.ignored += 1
                case nil: outcome.unreadable += 1
                }
            }
            if let newest = page.changes.map(\.hlc).max() {
                guard let device = try SyncState.value(.deviceID, in: db) else { throw StoreError.missingDeviceID }
                var clock = HybridLogicalClock(deviceID: device, last: try SyncState.value(.lastHLC, in: db).flatMap(HLC.init))
                clock.receive(newest, now: now)
                try SyncState.set(.lastHLC, clock.last.description, in: db)
            }
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
            let rejected = try Row.fetchAll(db, sql: """
                SELECT table_name, row_id, rejected FROM sync_outbox WHERE rejected IS NOT NULL ORDER BY seq
                """).map { RejectedChange(table: $0["table_name"], rowID: $0["row_id"], reason: $0["rejected"]) }
            return SyncStatus(
                pending: pending, rejected: rejected,
                lastSyncAt: try SyncState.value(.lastSyncAt, in: db).flatMap(StoreFormat.instant),
                cursor: try SyncState.value(.pullCursor, in: db).flatMap { Int64($0) } ?? 0,
                deviceID: try SyncState.value(.deviceID, in: db) ?? "",
                accountID: try SyncState.value(.accountID, in: db).flatMap(UUID.init(uuidString:)))
        }
    }

    /// nil: this version does not store the table or cannot read the row.
    private static func merge(_ change: Change, _ db: Database) throws -> Bool? {
        switch change.table {
        case .profile: try merge(ProfileRecord.self, change, db)
        case .cycleStates: try merge(CycleStateRecord.self, change, db)
        case .mealLogs: try merge(MealRecord.self, change, db)
        case .weightEntries: try merge(WeightRecord.self, change, db)
        case .analyticsEvents: try merge(EventRecord.self, change, db)
        case .customFoods: try merge(CustomFoodRecord.self, change, db)
        case .recipes: try merge(RecipeRecord.self, change, db)
        case .calendarSources, .briefingSettings: nil
        }
    }

    private static func merge<Record: SyncedRecord>(_: Record.Type, _ change: Change, _ db: Database) throws -> Bool? {
        let stored = try String.fetchOne(db, sql: "SELECT updated_hlc FROM \(Record.databaseTableName) WHERE id = ?",
                                         arguments: [change.id.uuidString])
        guard MergeRule.shouldApply(incoming: change.hlc, stored: stored.flatMap(HLC.init)) else { return false }
        guard case var .object(fields) = change.row else { return nil }
        fields["id"] = .string(change.id.uuidString)
        fields["updated_hlc"] = .string(change.hlc.description)
        fields["deleted"] = .bool(change.deleted)
        guard let record = try? JSONDecoder().decode(Record.self, from: JSONEncoder().encode(JSONValue.object(fields))) else {
            return nil
        }
        try record.save(db)
        // A local change of the row still waiting for upload has lost: the server holds newer.
        try db.execute(sql: "DELETE FROM sync_outbox WHERE table_name = ? AND row_id = ? AND hlc < ?",
                       arguments: [Record.syncTable.rawValue, change.id.uuidString, change.hlc.description])
        return true
    }
}
