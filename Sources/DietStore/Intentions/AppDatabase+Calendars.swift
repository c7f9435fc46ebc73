import Foundation
import GRDB

/// A calendar the briefing reads, with its last fetched text.
public struct StoredCalendar: Hashable, Sendable {
    public let id: UUID
    public let name: String
    /// A file path or an http(s) address.
    public let location: String
    public let isURL: Bool
    public let addedAt: Date
    public let fetchedAt: Date
    public let ics: String
    public let eventCount: Int
    public let problemCount: Int
}

extension AppDatabase {
    /// Stores a calendar (already parsed by the caller, who counts its events and problems).
    @discardableResult
    public func addCalendar(name: String, location: String, isURL: Bool, ics: String, eventCount: Int, problemCount: Int) throws -> StoredCalendar {
        let now = clock.now()
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let calendar = StoredCalendar(id: UUID(), name: String(trimmed.prefix(100)).isEmpty ? "Calendar" : String(trimmed.prefix(100)),
                                      location: location, isURL: isURL, addedAt: now, fetchedAt: now, ics: ics,
                                      eventCount: eventCount, problemCount: problemCount)
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO calendars (id, name, location, is_url, added_at, fetched_at, ics, event_count, problem_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [calendar.id.uuidString, calendar.name, location, isURL, StoreFormat.instant(now), StoreFormat.instant(now),
                                 ics, eventCount, problemCount])
        }
        return calendar
    }

    /// Replaces a calendar's text after a successful fetch.
    public func refreshCalendar(_ id: UUID, ics: String, eventCount: Int, problemCount: Int) throws {
        let now = clock.now()
        try writer.write { db in
            try db.execute(sql: "UPDATE calendars SET ics = ?, fetched_at = ?, event_count = ?, problem_count = ? WHERE id = ?",
                           arguments: [ics, StoreFormat.instant(now), eventCount, problemCount, id.uuidString])
            guard db.changesCount == 1 else { throw StoreError.notFound(table: "calendars", id: id.uuidString) }
        }
    }

    public func calendars() throws -> [StoredCalendar] {
        try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM calendars ORDER BY added_at, name").compactMap { row in
                guard let id = UUID(uuidString: row["id"]), let added = StoreFormat.instant(row["added_at"]),
                      let fetched = StoreFormat.instant(row["fetched_at"]) else { return nil }
                return StoredCalendar(id: id, name: row["name"], location: row["location"], isURL: row["is_url"], addedAt: added,
                                      fetchedAt: fetched, ics: row["ics"], eventCount: row["event_count"], problemCount: row["problem_count"])
            }
        }
    }

    /// Removes the calendar whose id starts with `prefix` (at least 4 characters, unique).
    public func removeCalendar(idPrefix prefix: String) throws -> StoredCalendar {
        let matches = try calendars().filter { $0.id.uuidString.lowercased().hasPrefix(prefix.lowercased()) }
        guard prefix.count >= 4, matches.count == 1, let calendar = matches.first else {
            throw StoreError.notFound(table: "calendars", id: prefix)
        }
        try writer.write { db in try db.execute(sql: "DELETE FROM calendars WHERE id = ?", arguments: [calendar.id.uuidString]) }
        return calendar
    }
}
