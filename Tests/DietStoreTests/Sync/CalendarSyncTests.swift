import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

@Suite("Calendars as a synced table")
struct CalendarSyncTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)
    static let ics =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260105T090000Z\r\nDTEND:20260105T100000Z\r\n"
        + "SUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    private func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
    }

    private func calendarChanges(_ store: AppDatabase) throws -> [Change] {
        try store.pendingChanges(limit: 1000).filter { $0.table == .calendarSources }
    }

    @Test("v14 keeps the calendars of v13 with LF line ends and queues each for upload")
    func migrationKeepsAndQueues() throws {
        // Given a database at v13 with two calendars, one of them longer than the sync limit
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v13_badges")
        let long = "BEGIN:VCALENDAR\r\n" + String(repeating: "X", count: CalendarRow.maxICSCharacters) + "\r\nEND:VCALENDAR\r\n"
        try queue.write { db in
            try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES ('device_id', 'laptop')")
            try db.execute(
                sql: """
                    INSERT INTO calendars (id, name, location, is_url, added_at, fetched_at, ics, event_count, problem_count) VALUES
                    ('11111111-1111-1111-1111-111111111111', 'Work', 'https://example.org/w.ics', 1,
                     '2026-01-01T08:00:00.000Z', '2026-01-02T08:00:00.000Z', ?, 1, 0),
                    ('22222222-2222-2222-2222-222222222222', 'Huge', '/tmp/huge.ics', 0,
                     '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', ?, 0, 2)
                    """,
                arguments: [Self.ics, long]
            )
        }
        // When the store opens (all migrations)
        let store = try AppDatabase(queue, clock: clock)
        // Then both are kept with LF line ends; the short one is queued, the long one stays here
        let calendars = try store.calendars()
        #expect(calendars.map(\.name) == ["Work", "Huge"])
        #expect(calendars.allSatisfy { !$0.ics.contains("\r") })
        #expect(calendars[0].ics == Self.ics.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(calendars.map(\.localOnly) == [false, true])
        #expect(calendars.map(\.eventCount) == [1, 0])
        #expect(calendars[1].ics.count > CalendarRow.maxICSCharacters)
        let queued = try calendarChanges(store)
        #expect(queued.map(\.id) == [calendars[0].id])
        #expect(queued.first.flatMap { RowContract.violation(in: $0, now: nil) } == nil)
        #expect(queued.first?.row["kind"]?.stringValue == "address")
        #expect(try store.reader.read { db in try db.tableExists("calendars") } == false)
    }

    @Test("v16 keeps as this device's own file only an absolute path it wrote itself: not another device's, not an upload's name")
    func migrationKeepsOwnPaths() throws {
        // Given a v15 store with a file calendar written here, one from the phone, an upload and an address
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v15_synced_whoop")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES ('device_id', 'laptop')")
            for (id, kind, location, device) in [
                ("11111111-1111-1111-1111-111111111111", "file", "/home/anna/gym.ics", "laptop"),
                ("22222222-2222-2222-2222-222222222222", "file", "/dev/stdin", "phone"),
                ("33333333-3333-3333-3333-333333333333", "file", "work.ics", "laptop"),
                ("44444444-4444-4444-4444-444444444444", "address", "https://example.org/w.ics", "laptop"),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO calendar_sources (id, name, kind, location, added_at, fetched_at, ics, updated_hlc, deleted)
                        VALUES (?, 'C', ?, ?, '2026-01-01T08:00:00.000Z', '2026-01-01T08:00:00.000Z', ?, ?, 0)
                        """,
                    arguments: [id, kind, location, Self.ics, "0001767254400000-0000-\(device)"]
                )
            }
        }
        // When the store opens
        let store = try AppDatabase(queue, clock: clock)
        // Then only the absolute path this device wrote is one it reads again
        #expect(try store.calendars().map(\.localPath) == ["/home/anna/gym.ics", nil, nil, nil])
        #expect(try store.calendarLocalHosts().isEmpty)
    }

    @Test("a file added here keeps its path on this device only; an upload and a pulled file calendar have none")
    func localPaths() throws {
        let store = try store()
        try store.addCalendar(
            name: "Gym",
            location: "/home/anna/gym.ics",
            isURL: false,
            localPath: "/home/anna/gym.ics",
            ics: Self.ics,
            eventCount: 1,
            problemCount: 0
        )
        try store.addCalendar(name: "Upload", location: "work.ics", isURL: false, ics: Self.ics, eventCount: 1, problemCount: 0)
        let change = try #require(try calendarChanges(store).first)
        let phone = try AppDatabase.inMemory(clock: clock, deviceID: "phone")
        try phone.merge(PullResponse(changes: [change], nextCursor: 1, hasMore: false))
        #expect(try store.calendars().map(\.localPath) == ["/home/anna/gym.ics", nil])
        #expect(try phone.calendars().map(\.location) == ["/home/anna/gym.ics"])
        #expect(try phone.calendars().map(\.localPath) == [nil])
        #expect(change.row["local_path"] == nil)
    }

    @Test("adding, refreshing and removing a calendar each queue a change in the same write; an unchanged text writes no version")
    func writesGoThroughTheOutbox() throws {
        let store = try store()
        // add
        let added = try store.addCalendar(name: "Work", location: "/cal/work.ics", isURL: false, ics: Self.ics, eventCount: 1, problemCount: 0)
        var queued = try calendarChanges(store)
        #expect(queued.count == 1 && queued[0].id == added.id && !queued[0].deleted)
        #expect(queued[0].row["ics"]?.stringValue == Self.ics.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(queued[0].row["kind"]?.stringValue == "file")
        #expect(RowContract.violation(in: queued[0], now: clock.now()) == nil)
        let firstStamp = queued[0].hlc
        // refresh with the same text (CRLF or LF): no new version
        #expect(try store.refreshCalendar(added.id, ics: Self.ics, eventCount: 1, problemCount: 0) == .unchanged)
        #expect(try calendarChanges(store).map(\.hlc) == [firstStamp])
        // refresh with a new text: a new version
        clock.advance(by: 60)
        let changed = Self.ics.replacingOccurrences(of: "Stand-up", with: "Planning")
        #expect(try store.refreshCalendar(added.id, ics: changed, eventCount: 1, problemCount: 0) == .changed)
        queued = try calendarChanges(store)
        #expect(queued.count == 1 && queued[0].hlc > firstStamp)
        #expect(queued[0].row["ics"]?.stringValue?.contains("Planning") == true)
        // remove: a tombstone
        _ = try store.removeCalendar(idPrefix: String(added.id.uuidString.prefix(8)))
        queued = try calendarChanges(store)
        #expect(queued.count == 1 && queued[0].deleted)
        #expect(RowContract.violation(in: queued[0], now: clock.now()) == nil)
        #expect(try store.calendars().isEmpty)
    }

    @Test("a file calendar longer than the row limit stays on this device: stored, never queued, removed without a tombstone")
    func tooLongStaysLocal() throws {
        let store = try store()
        let long = "BEGIN:VCALENDAR\n" + String(repeating: "X", count: CalendarRow.maxICSCharacters) + "\nEND:VCALENDAR\n"
        let added = try store.addCalendar(name: "Huge", location: "/cal/huge.ics", isURL: false, ics: long, eventCount: 0, problemCount: 1)
        #expect(added.localOnly)
        #expect(try calendarChanges(store).isEmpty)
        #expect(try store.calendars().first?.ics == long)
        #expect(try store.calendars().first?.localOnly == true)
        _ = try store.removeCalendar(idPrefix: String(added.id.uuidString.prefix(8)))
        #expect(try calendarChanges(store).isEmpty)
        #expect(try store.count("calendar_sources") == 0)
    }

    @Test("a synced calendar whose new text is too long keeps its synced copy; this device briefs from the longer text")
    func refreshTooLong() throws {
        let store = try store()
        let added = try store.addCalendar(
            name: "Work",
            location: "https://example.org/w.ics",
            isURL: true,
            ics: Self.ics,
            eventCount: 1,
            problemCount: 0
        )
        let stamp = try #require(try calendarChanges(store).first?.hlc)
        let long = "BEGIN:VCALENDAR\n" + String(repeating: "X", count: CalendarRow.maxICSCharacters) + "\nEND:VCALENDAR\n"
        #expect(try store.refreshCalendar(added.id, ics: long, eventCount: 0, problemCount: 0) == .localOnly)
        #expect(try calendarChanges(store).map(\.hlc) == [stamp])
        #expect(try store.calendars().first?.ics == long)
        #expect(try store.calendars().first?.localOnly == true)
    }

    @Test("CR and other control characters never reach the row: CRLF and a lone CR become LF")
    func lineEnds() {
        #expect(CalendarSourceRecord.normalized("A\r\nB\rC\nD\u{0}E\tF") == "A\nB\nC\nDE\tF")
        #expect(CalendarSourceRecord.cleanName("  \u{1B}[31mWork  ") == "[31mWork")
        #expect(CalendarSourceRecord.cleanName(" \u{7} ") == "Calendar")
    }

    @Test("a pulled calendar is stored and read like one added here; a pulled tombstone removes it")
    func mergesPulledCalendar() throws {
        // Given a change made on another device
        let phone = try AppDatabase.inMemory(clock: clock, deviceID: "phone")
        let added = try phone.addCalendar(
            name: "Team",
            location: "https://example.org/t.ics",
            isURL: true,
            ics: Self.ics,
            eventCount: 1,
            problemCount: 0
        )
        let change = try #require(try calendarChanges(phone).first)
        // When this device merges it
        let laptop = try store()
        #expect(try laptop.merge(PullResponse(changes: [change], nextCursor: 1, hasMore: false)).applied == 1)
        // Then it reads it, with counts unknown until this device counts them
        let pulled = try #require(try laptop.calendars().first)
        #expect(pulled.id == added.id && pulled.name == "Team" && pulled.isURL && pulled.location == "https://example.org/t.ics")
        #expect(pulled.ics == Self.ics.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(pulled.eventCount == nil && !pulled.localOnly)
        try laptop.setCalendarCounts(pulled.id, eventCount: 1, problemCount: 0)
        #expect(try laptop.calendars().first?.eventCount == 1)
        // A newer text from the phone makes the counts stale again
        clock.advance(by: 60)
        _ = try phone.refreshCalendar(added.id, ics: Self.ics.replacingOccurrences(of: "Stand-up", with: "Retro"), eventCount: 1, problemCount: 0)
        let refreshed = try #require(try calendarChanges(phone).first)
        #expect(try laptop.merge(PullResponse(changes: [refreshed], nextCursor: 2, hasMore: false)).applied == 1)
        #expect(try laptop.calendars().first?.ics.contains("Retro") == true)
        #expect(try laptop.calendars().first?.eventCount == nil)
        // And a tombstone removes it
        _ = try phone.removeCalendar(idPrefix: String(added.id.uuidString.prefix(8)))
        let tombstone = try #require(try calendarChanges(phone).first)
        #expect(try laptop.merge(PullResponse(changes: [tombstone], nextCursor: 3, hasMore: false)).applied == 1)
        #expect(try laptop.calendars().isEmpty)
    }
}
