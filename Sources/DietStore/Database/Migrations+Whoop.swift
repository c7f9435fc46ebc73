import Foundation
import GRDB
import SyncProtocol

extension Migrations {
    /// WHOOP records sync (table `whoop_records`): the device's copy of recoveries and sleeps
    /// becomes a synced table of the row contract (kinds recovery, sleep, cycle, workout; id the
    /// natural key of kind and WHOOP id; the record as JSON text; stamp and tombstone), so every
    /// device of the account briefs from them. Existing rows are kept and queued for upload.
    static func v15SyncedWhoop(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP INDEX IF EXISTS whoop_records_by_time;
                ALTER TABLE whoop_records RENAME TO whoop_records_v8;
                CREATE TABLE whoop_records (
                  id TEXT PRIMARY KEY NOT NULL,
                  kind TEXT NOT NULL CHECK (kind IN ('recovery', 'sleep', 'cycle', 'workout')),
                  whoop_id TEXT NOT NULL CHECK (length(whoop_id) BETWEEN 1 AND 64),
                  recorded_at TEXT NOT NULL,
                  record TEXT NOT NULL CHECK (json_valid(record) AND json_type(record) = 'object'),
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE INDEX whoop_records_by_time ON whoop_records (kind, recorded_at) WHERE deleted = 0;
                """
        )
        let rows = try Row.fetchAll(db, sql: "SELECT kind, id, recorded_at, json FROM whoop_records_v8 ORDER BY recorded_at, kind, id")
        if !rows.isEmpty, try SyncState.value(.deviceID, in: db) == nil {
            // The store gets its device id after migrating; the stamps of these rows need it now.
            try SyncState.set(.deviceID, UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""), in: db)
        }
        let now = Date()
        for row in rows {
            guard let kind = WhoopRecordKind(rawValue: row["kind"]), let recordedAt = StoreFormat.instant(row["recorded_at"] as String)
            else { continue }
            let record = WhoopRecordRecord(kind: kind, whoopID: row["id"], recordedAt: recordedAt, json: row["json"])
            _ = try Outbox.save(record, db, now: now)
        }
        try db.execute(sql: "DROP TABLE whoop_records_v8")
    }
}
