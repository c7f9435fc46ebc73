import Foundation
import GRDB
import SyncProtocol

/// One WHOOP record to keep: WHOOP's id for it, the instant it is filed under and its JSON.
public struct WhoopRecordInput: Hashable, Sendable {
    public let kind: WhoopRecordKind
    public let whoopID: String
    public let recordedAt: Date
    public let json: String

    public init(kind: WhoopRecordKind, whoopID: String, recordedAt: Date, json: String) {
        self.kind = kind
        self.whoopID = whoopID
        self.recordedAt = recordedAt
        self.json = json
    }
}

extension AppDatabase {
    /// Stores fetched records as synced rows (through the outbox, in one transaction) and notes
    /// the time of the fetch. A record already stored with the same text is left alone, so a
    /// repeated fetch queues nothing; returns how many rows were written.
    @discardableResult
    public func saveWhoopRecords(_ records: [WhoopRecordInput]) throws -> Int {
        let now = clock.now()
        return try writer.write { db in
            var written = 0
            for input in records {
                let record = WhoopRecordRecord(kind: input.kind, whoopID: input.whoopID, recordedAt: input.recordedAt, json: input.json)
                if let stored = try WhoopRecordRecord.fetchOne(db, key: record.id), !stored.deleted,
                    stored.record == record.record, stored.recordedAt == record.recordedAt
                {
                    continue
                }
                _ = try Outbox.save(record, db, now: now)
                written += 1
            }
            try SyncState.set(.whoopSyncedAt, StoreFormat.instant(now), in: db)
            return written
        }
    }

    /// The newest record of `kind` recorded at or before `instant`, as WHOOP sent it.
    public func latestWhoopRecord(_ kind: WhoopRecordKind, notAfter instant: Date) throws -> String? {
        try latestWhoopRecords(kind, notAfter: instant, limit: 1).first
    }

    /// The `limit` newest records of `kind` recorded at or before `instant`, newest first (a
    /// reader skipping some, such as naps, looks further back).
    public func latestWhoopRecords(_ kind: WhoopRecordKind, notAfter instant: Date, limit: Int) throws -> [String] {
        try reader.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT record FROM whoop_records WHERE kind = ? AND recorded_at <= ? AND deleted = 0
                    ORDER BY recorded_at DESC LIMIT ?
                    """,
                arguments: [kind.rawValue, StoreFormat.instant(instant), limit]
            )
        }
    }

    /// When WHOOP data was last fetched by this device or, on a device that only receives it
    /// through sync, the newest record's instant; nil if there is none.
    public func whoopSyncedAt() throws -> Date? {
        try reader.read { db in
            if let fetched = try SyncState.value(.whoopSyncedAt, in: db).flatMap(StoreFormat.instant) { return fetched }
            return try String.fetchOne(db, sql: "SELECT max(recorded_at) FROM whoop_records WHERE deleted = 0").flatMap(StoreFormat.instant)
        }
    }

    /// Live WHOOP records (all kinds).
    public func whoopRecordCount() throws -> Int {
        try reader.read { db in try WhoopRecordRecord.all().alive().fetchCount(db) }
    }

    /// Whether a WHOOP record became a tombstone with a stamp after `instant` (a disconnect,
    /// here or on another device, since then). Stamps of one width compare as text.
    public func whoopRecordsDeleted(after instant: Date) throws -> Bool {
        let floor = HLC(wallMs: Int64((instant.timeIntervalSince1970 * 1000).rounded(.down)), counter: 0, deviceID: "").description
        return try reader.read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM whoop_records WHERE deleted = 1 AND updated_hlc > ?)",
                arguments: [floor]
            ) ?? false
        }
    }

    /// Forgets what this device fetched from WHOOP (a disconnect of its own connection): every
    /// live record this device wrote last becomes a tombstone through the outbox, so other
    /// devices forget it too; records the account's server connection wrote stay (that
    /// connection is still there). Returns how many records were removed.
    @discardableResult
    public func clearWhoop() throws -> Int {
        let now = clock.now()
        return try writer.write { db in
            guard let device = try SyncState.value(.deviceID, in: db) else { throw StoreError.missingDeviceID }
            let mine = try WhoopRecordRecord.all().alive().fetchAll(db).filter { HLC($0.updatedHLC)?.deviceID == device }
            for record in mine { _ = try Outbox.save(record.tombstone, db, now: now) }
            try db.execute(sql: "DELETE FROM sync_state WHERE key = ?", arguments: [SyncState.Key.whoopSyncedAt.rawValue])
            return mine.count
        }
    }
}
