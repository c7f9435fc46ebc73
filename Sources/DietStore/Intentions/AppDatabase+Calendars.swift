import Foundation
import GRDB
import SyncProtocol

/// A calendar the briefing reads, with its last fetched text.
public struct StoredCalendar: Hashable, Sendable {
    public let id: UUID
    public let name: String
    /// A file path or an http(s) address, as the device that added it wrote it.
    public let location: String
    public let isURL: Bool
    /// The file this device added the calendar from: the only path it ever reads again. nil
    /// for an address, and for a file calendar another device added (a path that came with
    /// synced data is never read).
    public let localPath: String?
    public let addedAt: Date
    /// When the text was last fetched, or found unchanged, by any device.
    public let fetchedAt: Date
    public let ics: String
    /// nil until this device counted the text (a calendar that came from another device).
    public let eventCount: Int?
    public let problemCount: Int?
    /// The text is too long to sync: this device keeps it (other devices keep the last copy
    /// that synced, if any).
    public let localOnly: Bool
}

/// What a refresh of a calendar did.
public enum CalendarRefresh: Hashable, Sendable {
    /// A new text, stored and queued for the other devices.
    case changed
    /// The same text as stored: no new version, only the time of the check is kept.
    case unchanged
    /// A new text too long to sync: kept on this device only.
    case localOnly
}

extension AppDatabase {
    /// Stores a calendar (already parsed by the caller, who counts its events and problems)
    /// and queues it for the other devices, unless it is too long to sync: then it stays here
    /// (`StoredCalendar.localOnly`). Line ends are stored as LF. `localPath` is the file a
    /// file calendar was read from on this device (nil for an upload): only it is read again.
    @discardableResult
    public func addCalendar(
        name: String,
        location: String,
        isURL: Bool,
        localPath: String? = nil,
        ics: String,
        eventCount: Int,
        problemCount: Int
    ) throws -> StoredCalendar {
        let localPath = isURL ? nil : localPath
        let now = clock.now()
        var record = CalendarSourceRecord(
            id: UUID(),
            name: CalendarSourceRecord.cleanName(name),
            kind: isURL ? "address" : "file",
            location: location,
            addedAt: StoreFormat.instant(now),
            fetchedAt: StoreFormat.instant(now),
            ics: CalendarSourceRecord.normalized(ics),
            updatedHLC: "",
            deleted: false
        )
        let text = record.ics
        var localICS: String?
        if try record.syncProblem() != nil {
            (localICS, record.ics) = (record.ics, "")
        }
        try writer.write { db in
            if localICS == nil {
                record = try Outbox.save(record, db, now: now)
            } else {
                // stamped (an export keeps it whole) but never queued: nothing of it leaves the device
                record.updatedHLC = try Outbox.stamp(db, now: now).description
                try record.insert(db)
            }
            try Self.saveState(record.id, eventCount: eventCount, problemCount: problemCount, checkedAt: nil, localICS: localICS, db)
            if localICS != nil {
                try db.execute(sql: "UPDATE calendar_source_state SET unshared = 1 WHERE id = ?", arguments: [record.id.uuidString])
            }
            if let localPath {
                try db.execute(sql: "UPDATE calendar_source_state SET local_path = ? WHERE id = ?", arguments: [localPath, record.id.uuidString])
            }
        }
        return StoredCalendar(
            id: record.id,
            name: record.name,
            location: location,
            isURL: isURL,
            localPath: localPath,
            addedAt: now,
            fetchedAt: now,
            ics: text,
            eventCount: eventCount,
            problemCount: problemCount,
            localOnly: localICS != nil
        )
    }

    /// Keeps a calendar's text after a successful fetch. A new version is written (and
    /// queued) only when the text changed; otherwise only the time of the check is kept here.
    @discardableResult
    public func refreshCalendar(_ id: UUID, ics: String, eventCount: Int, problemCount: Int) throws -> CalendarRefresh {
        let now = clock.now()
        let text = CalendarSourceRecord.normalized(ics)
        return try writer.write { db in
            guard var record = try CalendarSourceRecord.fetchOne(db, key: id), !record.deleted else {
                throw StoreError.notFound(table: "calendars", id: id.uuidString)
            }
            let localICS = try String.fetchOne(
                db,
                sql: "SELECT local_ics FROM calendar_source_state WHERE id = ?",
                arguments: [id.uuidString]
            )
            if (localICS ?? record.ics) == text {
                try Self.saveState(id, eventCount: eventCount, problemCount: problemCount, checkedAt: now, localICS: localICS, db)
                return .unchanged
            }
            var candidate = record
            (candidate.ics, candidate.fetchedAt) = (text, StoreFormat.instant(now))
            if try candidate.syncProblem() != nil {
                // The synced copy stays as it was; this device briefs from the longer text.
                try Self.saveState(id, eventCount: eventCount, problemCount: problemCount, checkedAt: now, localICS: text, db)
                return .localOnly
            }
            record = try Outbox.save(candidate, db, now: now)
            try Self.saveState(id, eventCount: eventCount, problemCount: problemCount, checkedAt: nil, localICS: nil, db)
            try db.execute(sql: "UPDATE calendar_source_state SET unshared = 0 WHERE id = ?", arguments: [id.uuidString])
            return .changed
        }
    }

    /// Remembers this device's counts of a calendar's text (one that came from another device
    /// is counted when first shown).
    public func setCalendarCounts(_ id: UUID, eventCount: Int, problemCount: Int) throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO calendar_source_state (id, event_count, problem_count) VALUES (?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET event_count = excluded.event_count, problem_count = excluded.problem_count
                    """,
                arguments: [id.uuidString, eventCount, problemCount]
            )
        }
    }

    /// The calendars not removed, oldest first.
    public func calendars() throws -> [StoredCalendar] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.*, s.event_count, s.problem_count, s.checked_at, s.local_ics, s.local_path FROM calendar_sources c
                    LEFT JOIN calendar_source_state s ON s.id = c.id
                    WHERE c.deleted = 0 ORDER BY c.added_at, c.name
                    """
            ).compactMap(Self.storedCalendar)
        }
    }

    private static func storedCalendar(_ row: Row) -> StoredCalendar? {
        guard let id = UUID(uuidString: row["id"]), let added = StoreFormat.instant(row["added_at"] as String),
            let fetched = StoreFormat.instant(row["fetched_at"] as String)
        else { return nil }
        let checked = (row["checked_at"] as String?).flatMap(StoreFormat.instant)
        let localICS: String? = row["local_ics"]
        return StoredCalendar(
            id: id,
            name: row["name"],
            location: row["location"],
            isURL: row["kind"] == "address",
            localPath: row["kind"] == "file" ? row["local_path"] : nil,
            addedAt: added,
            fetchedAt: max(fetched, checked ?? fetched),
            ics: localICS ?? row["ics"],
            eventCount: row["event_count"],
            problemCount: row["problem_count"],
            localOnly: localICS != nil
        )
    }

    /// Removes the calendar whose id starts with `prefix` (at least 4 characters, unique): a
    /// tombstone for the other devices (without the text, which nobody needs any more), or,
    /// for one that never left this device, the row itself.
    public func removeCalendar(idPrefix prefix: String) throws -> StoredCalendar {
        let matches = try calendars().filter { $0.id.uuidString.lowercased().hasPrefix(prefix.lowercased()) }
        guard prefix.count >= 4, matches.count == 1, let calendar = matches.first else {
            throw StoreError.notFound(table: "calendars", id: prefix)
        }
        let now = clock.now()
        try writer.write { db in
            guard var record = try CalendarSourceRecord.fetchOne(db, key: calendar.id) else {
                throw StoreError.notFound(table: "calendars", id: prefix)
            }
            let unshared =
                try Bool.fetchOne(
                    db,
                    sql: "SELECT unshared FROM calendar_source_state WHERE id = ?",
                    arguments: [calendar.id.uuidString]
                ) ?? false
            try db.execute(sql: "DELETE FROM calendar_source_state WHERE id = ?", arguments: [calendar.id.uuidString])
            if unshared {
                try record.delete(db)
            } else {
                (record.deleted, record.ics) = (true, "")
                _ = try Outbox.save(record, db, now: now)
            }
        }
        return calendar
    }

    private static func saveState(
        _ id: UUID,
        eventCount: Int,
        problemCount: Int,
        checkedAt: Date?,
        localICS: String?,
        _ db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO calendar_source_state (id, event_count, problem_count, checked_at, local_ics) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET event_count = excluded.event_count, problem_count = excluded.problem_count,
                  checked_at = excluded.checked_at, local_ics = excluded.local_ics
                """,
            arguments: [id.uuidString, eventCount, problemCount, checkedAt.map(StoreFormat.instant), localICS]
        )
    }
}
