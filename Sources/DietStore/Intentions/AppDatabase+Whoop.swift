import Foundation
import GRDB

/// WHOOP records kept on the device, by kind: `recovery` or `sleep`.
public enum WhoopRecordKind: String, Sendable {
    case recovery, sleep
}

extension AppDatabase {
    /// Stores fetched records (replacing earlier copies) and notes the time of the fetch.
    public func saveWhoopRecords(_ records: [(kind: WhoopRecordKind, id: String, recordedAt: Date, json: String)]) throws {
        let now = clock.now()
        try writer.write { db in
            for record in records {
                try db.execute(sql: """
                    INSERT INTO whoop_records (kind, id, recorded_at, json) VALUES (?, ?, ?, ?)
                    ON CONFLICT (kind, id) DO UPDATE SET recorded_at = excluded.recorded_at, json = excluded.json
                    """, arguments: [record.kind.rawValue, record.id, StoreFormat.instant(record.recordedAt), record.json])
            }
            try SyncState.set(.whoopSyncedAt, StoreFormat.instant(now), in: db)
        }
    }

    /// The newest record of `kind` recorded at or before `instant`, as WHOOP sent it.
    public func latestWhoopRecord(_ kind: WhoopRecordKind, notAfter instant: Date) throws -> String? {
        try reader.read { db in
            try String.fetchOne(db, sql: """
                SELECT json FROM whoop_records WHERE kind = ? AND recorded_at <= ? ORDER BY recorded_at DESC LIMIT 1
                """, arguments: [kind.rawValue, StoreFormat.instant(instant)])
        }
    }

    /// When WHOOP data was last fetched; nil if never.
    public func whoopSyncedAt() throws -> Date? {
        try reader.read { db in try SyncState.value(.whoopSyncedAt, in: db).flatMap(StoreFormat.instant) }
    }

    public func whoopRecordCount() throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM whoop_records") ?? 0 }
    }

    /// Forgets everything fetched from WHOOP (on disconnect).
    public func clearWhoop() throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM whoop_records")
            try db.execute(sql: "DELETE FROM sync_state WHERE key = ?", arguments: [SyncState.Key.whoopSyncedAt.rawValue])
        }
    }
}
