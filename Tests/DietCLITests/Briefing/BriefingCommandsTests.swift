import Foundation
import Testing

@testable import DietCLI

@Suite("wdiet calendar and briefing")
struct BriefingCommandsTests {
    static let workCalendar = """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:workshop
        DTSTART;TZID=Europe/Berlin:20260105T090000
        DTEND;TZID=Europe/Berlin:20260105T103000
        SUMMARY:Design workshop
        RRULE:FREQ=WEEKLY;BYDAY=MO
        ATTENDEE:mailto:a@example.org
        ATTENDEE:mailto:b@example.org
        ATTENDEE:mailto:c@example.org
        ATTENDEE:mailto:d@example.org
        END:VEVENT
        BEGIN:VEVENT
        UID:sync
        DTSTART;TZID=Europe/Berlin:20260105T103000
        DTEND;TZID=Europe/Berlin:20260105T120000
        SUMMARY:Roadmap sync
        RRULE:FREQ=WEEKLY;BYDAY=MO
        EXDATE;TZID=Europe/Berlin:20260112T103000
        END:VEVENT
        BEGIN:VEVENT
        UID:review
        DTSTART;TZID=Europe/Berlin:20260105T140000
        DTEND;TZID=Europe/Berlin:20260105T153000
        SUMMARY:Quarterly review
        STATUS:CANCELLED
        END:VEVENT
        BEGIN:VEVENT
        UID:broken
        SUMMARY:No start
        END:VEVENT
        END:VCALENDAR
        """

    private func harnessWithCalendar() async throws -> (CLIHarness, String) {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let file = harness.folder.appendingPathComponent("work.ics")
        try Self.workCalendar.write(to: file, atomically: true, encoding: .utf8)
        return (harness, file.path)
    }

    @Test("adding a calendar reports its events and the damaged parts it skipped; list and remove by short id")
    func addListRemove() async throws {
        let (harness, path) = try await harnessWithCalendar()
        let added = try await harness.run(["calendar", "add", path, "--name", "Work"], now: "2026-01-05T07:00")
        #expect(added.contains("Added “Work”: 3 events."))
        #expect(added.contains("Skipped damaged parts: 1"))
        #expect(added.contains("event skipped: the event has no DTSTART"))
        let list = try await harness.run(["calendar", "list"], now: "2026-01-05T07:00")
        #expect(list.contains("Work · 3 events · updated Mon, Jan 5, 2026, 07:00"))
        let id = String(list.prefix(8))
        #expect(try await harness.run(["calendar", "remove", id], now: "2026-01-05T07:00") == "Removed “Work”.")
        #expect(try await harness.run(["calendar", "list"], now: "2026-01-05T07:00").contains("No calendars yet"))
        let json = try await harness.run(["calendar", "add", path, "--json"], now: "2026-01-05T07:00")
        #expect(json.contains("\"events\" : 3") && json.contains("the event has no DTSTART"))
        let refreshed = try await harness.run(["calendar", "refresh", "--json"], now: "2026-01-06T07:00")
        #expect(refreshed.contains("\"updated\" : true"))
    }

    @Test("bad calendars are refused and nothing is stored")
    func refused() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let notCalendar = harness.folder.appendingPathComponent("notes.txt")
        try "hello".write(to: notCalendar, atomically: true, encoding: .utf8)
        #expect(
            await failure { try await harness.run(["calendar", "add", notCalendar.path], now: "2026-01-05T07:00") }?.contains("is not a calendar")
                == true
        )
        #expect(
            await failure { try await harness.run(["calendar", "add", "/no/such.ics"], now: "2026-01-05T07:00") }?.contains("no such readable file")
                == true
        )
        #expect(try await harness.run(["calendar", "list"], now: "2026-01-05T07:00").contains("No calendars yet"))
    }

    @Test("the briefing shows the day's recurring events with demand, the meeting marathon, windows and what is missing")
    func briefing() async throws {
        let (harness, path) = try await harnessWithCalendar()
        _ = try await harness.run(["calendar", "add", path, "--name", "Work"], now: "2026-01-05T07:00")
        let monday = try await harness.run(["briefing"], now: "2026-01-05T07:00")
        #expect(monday.contains("The day: 3 events · calendar load"))
        #expect(monday.contains("09:00–10:30  Design workshop · medium demand"))
        #expect(monday.contains("14:00–15:30  Quarterly review · free"))
        #expect(monday.contains("1. Meeting marathon ahead — 3 h of back-to-back meetings from 09:00."))
        #expect(monday.contains("Workout windows: 07:00–09:00 (moderate), 12:30–21:00 (moderate)"))
        #expect(monday.contains("No WHOOP connected"))
        // The next Monday the EXDATE removes the sync: no marathon.
        let next = try await harness.run(["briefing", "--date", "2026-01-12"], now: "2026-01-05T07:00")
        #expect(next.contains("The day: 1 event ·") && !next.contains("Meeting marathon"))
        let german = try await harness.run(["briefing"], now: "2026-01-05T07:00", lang: "de")
        #expect(german.contains("Meeting-Marathon voraus"))
        let json = try await harness.run(["briefing", "--json"], now: "2026-01-05T07:00")
        #expect(json.contains("\"rule\" : \"calendar.marathon\""))
    }

    @Test("with neither WHOOP nor a calendar the briefing says one clear thing and how to connect both")
    func noSources() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let output = try await harness.run(["briefing"], now: "2026-01-05T07:00")
        #expect(
            output == """
                Briefing · Mon, Jan 5, 2026

                Nothing to brief yet: connect WHOOP or add a calendar, and the briefing plans your day.
                  wdiet whoop connect · wdiet calendar add FILE|URL
                """
        )
    }
}
