import Foundation
import Testing

@testable import ICalendar

@Suite("iCalendar documents")
struct DocumentTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    private func calendar(_ body: String, crlf: Bool = true) throws -> ICalendarDocument {
        let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + body + "\nEND:VCALENDAR\n"
        return try ICalendarDocument(parsing: crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text)
    }

    private func utc(_ text: String) -> Date {
        let (civil, _) = DateValue.parseDateTime(text)!
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsAsUTC))
    }

    private func window(_ from: String, _ to: String) -> DateInterval {
        DateInterval(start: utc(from), end: utc(to))
    }

    @Test("folding, escaping, quoted parameters, a byte-order mark and CRLF are read as written")
    func contentLines() throws {
        let document = try ICalendarDocument(
            parsing: "\u{FEFF}" + """
                BEGIN:VCALENDAR\r
                BEGIN:VEVENT\r
                UID:one\r
                DTSTART:20261123T090000Z\r
                DTEND:20261123T100000Z\r
                SUMMARY:Quarterly review\\, Q4\\; budget\\nand hiring with a very long title th\r
                 at folds onto a second line\r
                ATTENDEE;CN="Doe, Jane";PARTSTAT=ACCEPTED:mailto:jane@example.org\r
                ATTENDEE;CUTYPE=ROOM;CN=Room 4:mailto:room4@example.org\r
                END:VEVENT\r
                END:VCALENDAR\r
                """
        )
        let event = try #require(document.events.first)
        #expect(event.summary == "Quarterly review, Q4; budget\nand hiring with a very long title that folds onto a second line")
        #expect(event.attendees.map(\.name) == ["Doe, Jane", "Room 4"])
        #expect(event.attendees.filter(\.isPerson).count == 1)
        #expect(event.attendees.first?.participation == .accepted)
        #expect(document.problems.isEmpty)
    }

    @Test("a weekly 09:00 meeting in Berlin stays at 09:00 across the spring DST change")
    func weeklyAcrossDST() throws {
        let document = try calendar(
            """
            BEGIN:VEVENT
            UID:standup
            DTSTART;TZID=Europe/Berlin:20260323T090000
            DTEND;TZID=Europe/Berlin:20260323T093000
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Stand-up
            END:VEVENT
            """
        )
        let occurrences = document.occurrences(in: window("20260301T000000", "20260501T000000"), floatingZone: .gmt)
        #expect(occurrences.map(\.start) == [utc("20260323T080000"), utc("20260330T070000"), utc("20260406T070000")])
        #expect(occurrences.allSatisfy { $0.duration == 1800 })
    }

    @Test("Windows zone names and an embedded VTIMEZONE with its own rules give the same instants")
    func windowsAndEmbeddedZones() throws {
        let document = try calendar(
            """
            BEGIN:VTIMEZONE
            TZID:Custom Central European
            BEGIN:STANDARD
            DTSTART:19701025T030000
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19700329T020000
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:outlook
            DTSTART;TZID=W. Europe Standard Time:20260715T140000
            DURATION:PT1H
            END:VEVENT
            BEGIN:VEVENT
            UID:custom
            DTSTART;TZID=Custom Central European:20260715T140000
            DURATION:PT1H
            END:VEVENT
            BEGIN:VEVENT
            UID:custom-winter
            DTSTART;TZID=Custom Central European:20261215T140000
            DURATION:PT1H
            END:VEVENT
            """
        )
        let occurrences = document.occurrences(in: window("20260101T000000", "20270101T000000"), floatingZone: .gmt)
        #expect(occurrences.map(\.uid) == ["custom", "outlook", "custom-winter"])
        #expect(occurrences.map(\.start) == [utc("20260715T120000"), utc("20260715T120000"), utc("20261215T130000")])
        #expect(document.problems.isEmpty)
    }

    @Test("EXDATE removes, RDATE adds, an override moves one occurrence and a cancelled one stays marked")
    func exceptionsAndOverrides() throws {
        let document = try calendar(
            """
            BEGIN:VEVENT
            UID:gym
            DTSTART;TZID=Europe/Berlin:20261102T180000
            DTEND;TZID=Europe/Berlin:20261102T190000
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE;TZID=Europe/Berlin:20261103T180000
            RDATE;TZID=Europe/Berlin:20261110T070000
            SUMMARY:Gym
            END:VEVENT
            BEGIN:VEVENT
            UID:gym
            RECURRENCE-ID;TZID=Europe/Berlin:20261104T180000
            DTSTART;TZID=Europe/Berlin:20261104T200000
            DTEND;TZID=Europe/Berlin:20261104T210000
            SUMMARY:Gym (late)
            END:VEVENT
            BEGIN:VEVENT
            UID:gym
            RECURRENCE-ID;TZID=Europe/Berlin:20261105T180000
            DTSTART;TZID=Europe/Berlin:20261105T180000
            STATUS:CANCELLED
            SUMMARY:Gym
            END:VEVENT
            """
        )
        let occurrences = document.occurrences(in: window("20261101T000000", "20261201T000000"), floatingZone: berlin)
        #expect(occurrences.map(\.summary) == ["Gym", "Gym (late)", "Gym", "Gym", "Gym"])
        #expect(
            occurrences.map(\.start) == [
                utc("20261102T170000"), utc("20261104T190000"), utc("20261105T170000"),
                utc("20261106T170000"), utc("20261110T060000"),
            ]
        )
        #expect(occurrences.map(\.blocksTime) == [true, true, false, true, true])
    }

    @Test("all-day and floating events follow the viewer's zone, or X-WR-TIMEZONE when the calendar names one")
    func floatingAndAllDay() throws {
        let body = """
            BEGIN:VEVENT
            UID:holiday
            DTSTART;VALUE=DATE:20261224
            DTEND;VALUE=DATE:20261227
            SUMMARY:Holidays
            TRANSP:TRANSPARENT
            END:VEVENT
            BEGIN:VEVENT
            UID:lunch
            DTSTART:20261224T123000
            SUMMARY:Lunch
            END:VEVENT
            """
        let local = try calendar(body).occurrences(in: window("20261220T000000", "20261231T000000"), floatingZone: berlin)
        #expect(local.map(\.start) == [utc("20261223T230000"), utc("20261224T113000")])
        #expect(local[0].end == utc("20261226T230000"))
        #expect(local[0].isAllDay && !local[0].blocksTime)
        #expect(local[1].duration == 0)

        let newYork = try calendar("X-WR-TIMEZONE:America/New_York\n" + body)
            .occurrences(in: window("20261220T000000", "20261231T000000"), floatingZone: berlin)
        #expect(newYork.map(\.start) == [utc("20261224T050000"), utc("20261224T173000")])
    }

    @Test("a wall time skipped by the clock change is read with the offset before the gap")
    func dstGap() throws {
        let document = try calendar(
            """
            BEGIN:VEVENT
            UID:gap
            DTSTART;TZID=Europe/Berlin:20260329T023000
            DURATION:PT30M
            END:VEVENT
            """
        )
        let occurrence = try #require(document.occurrences(in: window("20260328T000000", "20260331T000000"), floatingZone: .gmt).first)
        #expect(occurrence.start == utc("20260329T013000"))  // 03:30 CEST
    }

    @Test("damaged events are skipped and reported by line while the rest is kept; a damaged RRULE only loses the rule")
    func damaged() throws {
        let document = try calendar(
            """
            BEGIN:VEVENT
            UID:no-start
            SUMMARY:Nothing
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-rule
            DTSTART:20261123T090000Z
            RRULE:FREQ=SOMETIMES
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-date
            DTSTART:2026-11-23
            END:VEVENT
            this line has no colon
            BEGIN:VEVENT
            UID:fine
            DTSTART;TZID=Mars/Olympus_Mons:20261123T090000
            END:VEVENT
            BEGIN:VEVENT
            UID:unclosed
            DTSTART:20261124T090000Z
            """,
            crlf: false
        )
        #expect(document.events.map(\.uid) == ["bad-rule", "fine", "unclosed"])
        #expect(document.events.first?.rules.isEmpty == true)
        let messages = document.problems.map(\.description)
        #expect(messages.contains("line 4: event skipped: the event has no DTSTART"))
        #expect(messages.contains { $0.hasPrefix("line 11: the event with UID bad-rule: RRULE “FREQ=SOMETIMES” is ignored (FREQ “SOMETIMES”") })
        #expect(messages.contains { $0.hasPrefix("line 15: event skipped: DTSTART “2026-11-23”") })
        #expect(messages.contains("line 17: “this line has no colon” has no property name"))
        #expect(messages.contains { $0.contains("“Mars/Olympus_Mons” is unknown") })
        #expect(messages.contains { $0.contains("BEGIN:VEVENT is never ended") })
    }

    @Test("input that is not a calendar is refused with a reason", arguments: ["", "hello", "BEGIN:VCARD\nEND:VCARD", "SUMMARY:x\n"])
    func notACalendar(text: String) {
        #expect(throws: ICalendarError.self) { try ICalendarDocument(parsing: text) }
    }

    @Test("a rule that never produces an instance and a dense rule from long ago both finish")
    func terminates() throws {
        let document = try calendar(
            """
            BEGIN:VEVENT
            UID:never
            DTSTART:20260101T090000Z
            RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30
            END:VEVENT
            BEGIN:VEVENT
            UID:dense
            DTSTART:19900101T000000Z
            RRULE:FREQ=SECONDLY
            END:VEVENT
            """
        )
        let occurrences = document.occurrences(in: window("20261123T000000", "20261124T000000"), floatingZone: .gmt)
        #expect(occurrences.allSatisfy { $0.uid == "dense" })
    }
}

@Suite("Expansion cost")
struct ExpansionCostTests {
    @Test("a weekly series since the year 226 (a mistyped 2026) expands a window without walking the centuries")
    func farPastStart() throws {
        // The libFuzzer run found this shape taking over five seconds before occurrences were skipped.
        let document = try ICalendarDocument(
            parsing: """
                BEGIN:VCALENDAR
                BEGIN:VEVENT
                UID:typo
                DTSTART;TZID=Europe/Berlin:02260323T090000
                DTEND;TZID=Europe/Berlin:02260323T093000
                RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z
                END:VEVENT
                END:VCALENDAR
                """
        )
        let window = DateInterval(start: Date(timeIntervalSince1970: 1_795_000_000), duration: 14 * 86400)
        let occurrences = document.occurrences(in: window, floatingZone: .gmt)
        #expect(occurrences.count == 4)
        #expect(occurrences.allSatisfy { $0.duration == 1800 })
    }

    @Test("a series whose every occurrence lasts centuries looks back at most 400 days, not at all of them")
    func centuriesLongOccurrences() throws {
        let document = try ICalendarDocument(
            parsing: """
                BEGIN:VCALENDAR
                BEGIN:VEVENT
                UID:damaged
                DTSTART;TZID=Europe/Berlin:02260323T090000
                DTEND;TZID=Europe/Berlin:20260323T093000
                RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z
                END:VEVENT
                END:VCALENDAR
                """
        )
        let window = DateInterval(start: Date(timeIntervalSince1970: 1_795_000_000), duration: 14 * 86400)
        let occurrences = document.occurrences(in: window, floatingZone: .gmt)
        // DTSTART itself, then about 400 days of Mondays and Wednesdays before the window's end.
        #expect((110...130).contains(occurrences.count))
    }
}
