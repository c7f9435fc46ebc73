import Foundation
import Testing

@testable import ICalendar

/// Calendars built to exhaust memory or time: each one is read and expanded with bounded
/// output, and what was left out is reported, never dropped silently.
@Suite("Hostile calendars")
struct HostileCalendarTests {
    /// 2026-11-23, a Monday, in UTC.
    static let day = DateInterval(start: Date(timeIntervalSince1970: 1_795_392_000), duration: 86400)

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    static func event(_ uid: String, _ lines: String...) -> String {
        event(uid, lines)
    }

    static func event(_ uid: String, _ lines: [String]) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
    }

    static func list(_ values: ClosedRange<Int>) -> String { values.map(String.init).joined(separator: ",") }

    @Test("an event repeating every second keeps its first occurrences in the window up to the limit and says so")
    func everySecond() throws {
        // Given an event that repeats every second from the start of the day
        let document = try ICalendarDocument(parsing: Self.calendar(Self.event("tick", "DTSTART:20261123T000000Z", "RRULE:FREQ=SECONDLY")))
        // When the day is expanded
        let expansion = document.expansion(in: Self.day, floatingZone: .gmt)
        // Then it stops at the per-event limit, keeps the earliest and reports what it left out
        #expect(expansion.occurrences.count == Limits.occurrencesPerEvent)
        #expect(expansion.occurrences.first?.start == Self.day.start)
        #expect(expansion.occurrences.last?.start == Self.day.start.addingTimeInterval(TimeInterval(Limits.occurrencesPerEvent - 1)))
        #expect(
            expansion.problems.map(\.description).contains {
                $0.hasPrefix("line 4: the event has more than \(Limits.occurrencesPerEvent) occurrences in the window")
            }
        )
    }

    @Test(
        "dense rules that never reach the window stop at the event's work limit and are reported",
        arguments: [
            "FREQ=SECONDLY",
            "FREQ=MINUTELY;COUNT=100000000",
            "FREQ=DAILY;BYHOUR=\(list(0...23));BYMINUTE=\(list(0...59));BYSECOND=\(list(0...59))",
            "FREQ=YEARLY;BYYEARDAY=\(list(1...366));BYHOUR=\(list(0...23));BYMINUTE=\(list(0...59));BYSECOND=\(list(0...59));COUNT=900000000",
            "FREQ=SECONDLY;BYMONTH=1;BYMONTHDAY=1;BYHOUR=0;BYMINUTE=0;COUNT=1000",
        ]
    )
    func denseRules(rule: String) throws {
        // Given an event of a dense rule from 1990 and a plain one
        let document = try ICalendarDocument(
            parsing: Self.calendar(
                Self.event("dense", "DTSTART:19900101T000000Z", "RRULE:\(rule)") + Self.event("plain", "DTSTART:20261123T090000Z")
            )
        )
        // When a day in 2026 is expanded
        let expansion = document.expansion(in: Self.day, floatingZone: .gmt)
        // Then the dense one stops at its limit and is reported, and the plain one is there
        #expect(expansion.occurrences.map(\.uid) == ["plain"])
        #expect(
            expansion.problems.map(\.description) == [
                "line 4: the event repeats too densely to expand (more than \(Limits.stepsPerEvent) steps); its later occurrences are left out"
            ]
        )
    }

    @Test("more dense events than the calendar's work limit allows: later recurring ones are left out and reported, single ones kept")
    func calendarWorkLimit() throws {
        // Given more events repeating every second since 1990 than the calendar's budget covers
        let count = Limits.steps / Limits.stepsPerEvent + 2
        let events = (1...count).map { Self.event("dense-\($0)", "DTSTART:19900101T000000Z", "RRULE:FREQ=SECONDLY") }.joined()
        let document = try ICalendarDocument(parsing: Self.calendar(events + Self.event("plain", "DTSTART:20261123T090000Z")))
        // When a day in 2026 is expanded
        let expansion = document.expansion(in: Self.day, floatingZone: .gmt)
        // Then the recurring ones stop once, saying so, each one cut before is reported too,
        // and the single event after them is still there
        let messages = expansion.problems.map(\.message)
        #expect(expansion.occurrences.map(\.uid) == ["plain"])
        #expect(
            messages.filter { $0.hasPrefix("expanding the calendar took more than \(Limits.steps) steps; this recurring event and the ones") }.count
                == 1
        )
        #expect(messages.filter { $0.hasPrefix("the event repeats too densely") }.count >= Limits.steps / Limits.stepsPerEvent - 1)
    }

    @Test("more occurrences in the window than the calendar's limit keep the earliest and say so")
    func tooManyInTheWindow() throws {
        // Given 25 events repeating every minute of the day: 36,000 occurrences
        let events = (1...25).map { Self.event("minute-\($0)", "DTSTART:20261123T000000Z", "RRULE:FREQ=MINUTELY") }.joined()
        let document = try ICalendarDocument(parsing: Self.calendar(events))
        // When the day is expanded
        let expansion = document.expansion(in: Self.day, floatingZone: .gmt)
        // Then the earliest are kept, in order, and the rest reported
        #expect(expansion.occurrences.count == Limits.occurrences)
        #expect(expansion.occurrences.map(\.start) == expansion.occurrences.map(\.start).sorted())
        #expect(expansion.occurrences.last?.start == Self.day.start.addingTimeInterval(799 * 60))
        #expect(
            expansion.problems.map(\.message) == [
                "more than \(Limits.occurrences) occurrences overlap the window; only the earliest \(Limits.occurrences) are used"
            ]
        )
    }

    @Test("an INTERVAL too large to step by is refused with its rule instead of overflowing; the event keeps its own start")
    func hugeInterval() throws {
        // Given rules whose INTERVAL would overflow the date arithmetic
        let document = try ICalendarDocument(
            parsing: Self.calendar(
                Self.event("years", "DTSTART:20260101T000000Z", "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775807")
                    + Self.event("seconds", "DTSTART:20260101T000000Z", "RRULE:FREQ=SECONDLY;INTERVAL=9223372036854775807;BYSECOND=3")
                    + Self.event("fine", "DTSTART:20261123T090000Z", "RRULE:FREQ=SECONDLY;INTERVAL=\(Limits.interval)")
            )
        )
        // When the day is expanded
        let occurrences = document.occurrences(in: Self.day, floatingZone: .gmt)
        // Then the two rules are refused naming INTERVAL (their events keep only their own start,
        // outside the day), and the rule at the limit is kept
        #expect(document.events.map(\.rules.count) == [0, 0, 1])
        #expect(document.problems.filter { $0.message.contains("INTERVAL must be a whole number from 1 to \(Limits.interval)") }.count == 2)
        #expect(occurrences.map(\.uid) == ["fine"])
        #expect(
            document.occurrences(
                in: DateInterval(start: Self.day.start.addingTimeInterval(-400 * 86400), end: Self.day.start),
                floatingZone: .gmt
            ).map(\.uid) == ["seconds", "years"]
        )
    }

    @Test("more RRULEs on one event than the limit: the first ones are expanded, a damaged one is left out, the rest reported")
    func tooManyRules() throws {
        // Given an event with 12 daily RRULEs, one per hour, the third one damaged
        let rules = (0..<12).map { $0 == 2 ? "RRULE:FREQ=DAILY;BYHOUR=25" : "RRULE:FREQ=DAILY;BYHOUR=\($0)" }
        let document = try ICalendarDocument(parsing: Self.calendar(Self.event("hourly", ["DTSTART:20261123T000000Z", "SUMMARY:Pills"] + rules)))
        // When the day is expanded
        let occurrences = document.occurrences(in: Self.day, floatingZone: .gmt)
        // Then the first ten rules but the damaged one are expanded, and both cuts are reported
        #expect(occurrences.map { Int($0.start.timeIntervalSince(Self.day.start)) / 3600 } == [0, 1, 3, 4, 5, 6, 7, 8, 9])
        #expect(
            document.problems.map(\.message) == [
                "event “Pills” (UID hourly): RRULE “FREQ=DAILY;BYHOUR=25” is ignored (BYHOUR value “25” is out of range); its other rules and its own start are kept",
                "event “Pills” (UID hourly) has more than \(Limits.rulesPerEvent) RRULEs; the rest are skipped",
            ]
        )
    }

    @Test("a line over the limit and an event with too many attendees or dates are cut and reported")
    func oversizedParts() throws {
        // Given a calendar with a 2 MB line, 1,001 attendees and 10,001 RDATEs
        let attendees = (0...Limits.attendeesPerEvent).map { "ATTENDEE:mailto:person\($0)@example.org" }
        let dates = (0...Limits.datesPerEvent).map { "2026\(String(format: "%04d", 1101 + $0 % 28))T\(String(format: "%06d", $0 % 24 * 10000))Z" }
        let text = Self.calendar(
            Self.event("long", "DTSTART:20261123T090000Z", "SUMMARY:" + String(repeating: "a", count: 2 << 20))
                + Self.event("crowd", ["DTSTART:20261123T100000Z"] + attendees)
                + Self.event("dates", "DTSTART:20261101T000000Z", "RDATE:" + dates.joined(separator: ","))
        )
        // When it is read
        let document = try ICalendarDocument(parsing: text)
        // Then the cut parts are reported and the rest is kept
        #expect(document.events.map(\.uid) == ["long", "crowd", "dates"])
        #expect(document.events.first?.summary.isEmpty == true)
        #expect(document.events.dropFirst().first?.attendees.count == Limits.attendeesPerEvent)
        #expect(document.events.last?.extraDates.count == Limits.datesPerEvent)
        #expect(
            document.problems.map(\.message) == [
                "a line longer than 1 MB is skipped",
                "the event has more than \(Limits.attendeesPerEvent) attendees; the rest are skipped",
                "the event has more than \(Limits.datesPerEvent) RDATE values; the rest are skipped",
            ]
        )
    }

    @Test("beyond the listed problems the rest are counted in one last entry")
    func manyProblems() throws {
        // Given 1,500 damaged lines
        let text = Self.calendar(String(repeating: "no colon here\r\n", count: Limits.listedProblems + 500))
        // When it is read
        let document = try ICalendarDocument(parsing: text)
        // Then the first are listed and the rest counted
        #expect(document.problems.count == Limits.listedProblems + 1)
        #expect(document.problems.last?.message == "and 500 more problems, not listed")
    }

    @Test("more components than the limit: the rest of the calendar is skipped and reported")
    func tooManyComponents() throws {
        // Given a calendar of more components than the limit
        let text = Self.calendar(
            Self.event("first", "DTSTART:20261123T090000Z")
                + String(repeating: "BEGIN:X-THING\r\nEND:X-THING\r\n", count: Limits.components)
                + Self.event("after", "DTSTART:20261123T100000Z")
        )
        // When it is read
        let document = try ICalendarDocument(parsing: text)
        // Then it stops there, keeps what came before and says so
        #expect(document.events.map(\.uid) == ["first"])
        #expect(document.problems.map(\.message) == ["the calendar has more than \(Limits.components) components; the rest is skipped"])
    }

    @Test("a properties flood in one component keeps the first ones and says so")
    func tooManyProperties() throws {
        // Given an event with more properties than the limit
        let text = Self.calendar(
            Self.event(
                "flood",
                ["DTSTART:20261123T090000Z"]
                    + Array(repeating: "X-NOISE:x", count: Limits.propertiesPerComponent)
            )
        )
        // When it is read
        let document = try ICalendarDocument(parsing: text)
        // Then the event is kept and the flood reported once
        #expect(document.events.map(\.uid) == ["flood"])
        #expect(
            document.problems.map(\.description) == [
                "line 4: BEGIN:VEVENT has more than \(Limits.propertiesPerComponent) properties; the rest are skipped"
            ]
        )
    }

    @Test("thousands of overrides of one series each replace their own occurrence")
    func manyOverrides() throws {
        // Given a daily series with 20,000 moved occurrences
        let overrides = (0..<20_000).map { index in
            let original = Date(timeIntervalSince1970: 1_795_392_000 - 10_000 * 86400 + TimeInterval(index) * 86400 + 9 * 3600)
            let stamp = DateValue.stamp(original)
            return Self.event("daily", "RECURRENCE-ID:\(stamp)", "DTSTART:\(DateValue.stamp(original.addingTimeInterval(3600)))", "SUMMARY:moved")
        }.joined()
        // (the series itself last: finding it must not mean reading every override again)
        let document = try ICalendarDocument(
            parsing: Self.calendar(
                overrides + Self.event("daily", "DTSTART:19990101T090000Z", "DURATION:PT30M", "RRULE:FREQ=DAILY")
            )
        )
        // When the day is expanded
        let occurrences = document.occurrences(in: Self.day, floatingZone: .gmt)
        // Then the day's occurrence is the moved one
        #expect(occurrences.map(\.summary) == ["moved"])
        #expect(occurrences.first?.start == Self.day.start.addingTimeInterval(10 * 3600))
    }

    @Test("a time zone defined with more transitions than are read is reported; Outlook-style zones from 1601 still resolve")
    func zoneTransitions() throws {
        // Given a zone whose observances repeat every second and ten zones written the way Outlook writes them
        let observances = (0..<400).map { index in
            "BEGIN:STANDARD\r\nDTSTART:\(1900 + index % 100)0101T000000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=SECONDLY\r\nEND:STANDARD\r\n"
        }.joined()
        let outlook = (0..<10).map { index in
            "BEGIN:VTIMEZONE\r\nTZID:Office \(index)\r\n"
                + "BEGIN:STANDARD\r\nDTSTART:16010101T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\n"
                + "BEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\n"
                + "END:VTIMEZONE\r\n" + Self.event("office-\(index)", "DTSTART;TZID=Office \(index):20260715T140000")
        }.joined()
        let text = Self.calendar(
            outlook + "BEGIN:VTIMEZONE\r\nTZID:Busy\r\n" + observances + "END:VTIMEZONE\r\n"
                + Self.event("busy", "DTSTART;TZID=Busy:20261123T090000")
        )
        // When it is read
        let document = try ICalendarDocument(parsing: text)
        // Then the busy zone is reported and read as local times, and the Outlook ones give CEST
        #expect(document.problems.map(\.message) == ["time zone “Busy” has more transitions than are read; its times are read as local times"])
        let july = DateInterval(start: Date(timeIntervalSince1970: 1_784_073_600), duration: 86400)  // 2026-07-15 UTC
        #expect(
            document.occurrences(in: july, floatingZone: .gmt).map(\.start) == Array(repeating: july.start.addingTimeInterval(12 * 3600), count: 10)
        )
    }
}

extension DateValue {
    /// `20261123T090000Z` for an instant (test helper).
    static func stamp(_ date: Date) -> String {
        let civil = CivilDateTime(secondsAsUTC: Int64(date.timeIntervalSince1970))
        return civil.description + "Z"
    }
}
