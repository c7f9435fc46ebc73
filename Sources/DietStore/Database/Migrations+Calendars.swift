import Foundation
import GRDB
import SyncProtocol

extension Migrations {
    /// Calendars sync: `calendars` becomes the synced `calendar_sources` of the row contract
    /// (name, kind file/address, location, added and fetched times, the text with LF line ends;
    /// stamp and tombstone), so every device of the account briefs from them. What only this
    /// device knows lives beside it in `calendar_source_state`: the counts of the text it
    /// parsed, when it last found an address unchanged, `local_ics`, a text too long to sync
    /// (then the synced row holds an empty text, or the last copy that synced), and `unshared`
    /// for a calendar never queued for upload (removing it leaves no tombstone).
    ///
    /// Existing rows are kept (CRLF → LF) and queued for upload, stamped at their own fetch
    /// time; one too long to sync stays on this device.
    static func v14SyncedCalendars(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE calendar_sources (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 800), -- 100 characters; SQLite counts code points
                  kind TEXT NOT NULL CHECK (kind IN ('file', 'address')),
                  location TEXT NOT NULL,
                  added_at TEXT NOT NULL,
                  fetched_at TEXT NOT NULL,
                  ics TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE TABLE calendar_source_state (
                  id TEXT PRIMARY KEY NOT NULL,
                  event_count INTEGER CHECK (event_count IS NULL OR event_count >= 0),
                  problem_count INTEGER CHECK (problem_count IS NULL OR problem_count >= 0),
                  checked_at TEXT,
                  local_ics TEXT,
                  unshared INTEGER NOT NULL DEFAULT 0 CHECK (unshared IN (0, 1))
                ) STRICT;
                -- A new text (pulled from another device, or written here) makes the counts stale
                -- and replaces a text that was too long to sync.
                CREATE TRIGGER calendar_sources_text_changed AFTER UPDATE OF ics ON calendar_sources
                WHEN OLD.ics IS NOT NEW.ics BEGIN
                  UPDATE calendar_source_state SET event_count = NULL, problem_count = NULL, local_ics = NULL WHERE id = NEW.id;
                END;
                """
        )
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM calendars ORDER BY added_at, id")
        if !rows.isEmpty, try SyncState.value(.deviceID, in: db) == nil {
            // The store gets its device id after migrating; the stamps of these rows need it now.
            try SyncState.set(.deviceID, UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""), in: db)
        }
        for row in rows {
            try migrateCalendar(row, db)
        }
        try db.execute(sql: "DROP TABLE calendars")
    }

    private static func migrateCalendar(_ row: Row, _ db: Database) throws {
        guard let id = UUID(uuidString: row["id"]), let fetched = StoreFormat.instant(row["fetched_at"] as String) else { return }
        let ics = CalendarSourceRecord.normalized(row["ics"])
        var record = CalendarSourceRecord(
            id: id,
            name: CalendarSourceRecord.cleanName(row["name"]),
            kind: (row["is_url"] as Bool) ? "address" : "file",
            location: row["location"],
            addedAt: row["added_at"],
            fetchedAt: row["fetched_at"],
            ics: ics,
            updatedHLC: "",
            deleted: false
        )
        var localICS: String?
        // Stamped at the calendar's own fetch time: a migration has no clock, and the device's
        // clock moves on from the newest stamp anyway.
        if try record.syncProblem() == nil {
            _ = try Outbox.save(record, db, now: fetched)
        } else {
            (localICS, record.ics) = (ics, "")
            record.updatedHLC = try Outbox.stamp(db, now: fetched).description
            try record.insert(db)
        }
        try db.execute(
            sql: """
                INSERT INTO calendar_source_state (id, event_count, problem_count, local_ics, unshared) VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [id.uuidString, row["event_count"] as Int, row["problem_count"] as Int, localICS, localICS != nil]
        )
    }

    /// Which file this device read a file calendar from (`calendar_source_state.local_path`):
    /// only such a calendar is read again here, never a path that came with a synced row. A
    /// calendar's last version written here was added or refreshed here, so its absolute path
    /// is this device's own. And `device_settings`, this device's own settings that never sync (the
    /// hosts on the user's own network whose calendars may be fetched).
    static func v16LocalCalendarFiles(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE calendar_source_state ADD COLUMN local_path TEXT;
                CREATE TABLE device_settings (
                  key TEXT PRIMARY KEY NOT NULL,
                  value TEXT NOT NULL
                ) STRICT;
                """
        )
        guard let device = try SyncState.value(.deviceID, in: db) else { return }
        // An absolute path: the web app's uploads keep only the file's name, nothing to read again.
        let files = try Row.fetchAll(
            db,
            sql: "SELECT id, location, updated_hlc FROM calendar_sources WHERE kind = 'file' AND deleted = 0 AND location LIKE '/%'"
        )
        for row in files where HLC(row["updated_hlc"] as String)?.deviceID == device {
            try db.execute(
                sql: """
                    INSERT INTO calendar_source_state (id, local_path) VALUES (?, ?)
                    ON CONFLICT (id) DO UPDATE SET local_path = excluded.local_path
                    """,
                arguments: [row["id"] as String, row["location"] as String]
            )
        }
    }
}
