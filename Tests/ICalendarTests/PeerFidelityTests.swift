import Foundation
import Testing

@testable import ICalendar

/// The calendars of `PeerCalendars` read as Apple Calendar, Outlook, Google Calendar and
/// libical read them.
@Suite("Calendars as the peers read them")
struct PeerFidelityTests {
    private func utc(_ text: String) throws -> Date {
        let (civil, _) = try #require(DateValue.parseDateTime(text))
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsAsUTC))
    }

    private func window(_ from: String, _ to: String) throws -> DateInterval {
        DateInterval(start: try utc(from), end: try utc(to))
    }

    @Test("RANGE=THISANDFUTURE moves, renames and lengthens that occurrence and every later one, earlier ones unchanged")
    func thisAndFuture() throws {
        // Given Apple Calendar's weekly Monday 10:00 meeting, moved to Tuesday 14:00 for 90 minutes
        // from Oct 26 on, with the Nov 16 occurrence then moved on its own (a later SEQUENCE)
        let document = try ICalendarDocument(parsing: PeerCalendars.appleThisAndFuture)

        // When the autumn is expanded
        let occurrences = document.occurrences(in: try window("20261001T000000", "20270101T000000"), floatingZone: .gmt)

        // Then the three before Oct 26 are as they were, and the seven from then on follow the override
        #expect(
            occurrences.map(\.start) == [
                try utc("20261005T080000"), try utc("20261012T080000"), try utc("20261019T080000"),
                try utc("20261027T130000"), try utc("20261103T130000"), try utc("20261110T130000"),
                try utc("20261118T080000"), try utc("20261124T130000"), try utc("20261201T130000"), try utc("20261208T130000"),
            ]
        )
        #expect(occurrences.map(\.duration) == [3600, 3600, 3600, 5400, 5400, 5400, 3600, 5400, 5400, 5400])
        #expect(
            occurrences.map(\.summary) == ["Team meeting", "Team meeting", "Team meeting"]
                + Array(repeating: "Team meeting (Tuesdays)", count: 3) + ["Team meeting (offsite)"]
                + Array(repeating: "Team meeting (Tuesdays)", count: 3)
        )
        // And each keeps the start it replaces (Mondays 10:00 in Berlin)
        #expect(occurrences[3].recurrenceStart == (try utc("20261026T090000")))
        #expect(occurrences[9].recurrenceStart == (try utc("20261207T090000")))
        #expect(document.problems.isEmpty)

        // And a window that starts long after the override still sees it
        let december = document.occurrences(in: try window("20261202T000000", "20261231T000000"), floatingZone: .gmt)
        #expect(december.map(\.start) == [try utc("20261208T130000")])
        #expect(december.map(\.summary) == ["Team meeting (Tuesdays)"])
    }

    @Test("RANGE=THISANDFUTURE moves an all-day series by days and cancels a series from one occurrence on")
    func thisAndFutureAllDayAndCancelled() throws {
        // Given Zimbra's bin day moved to Tuesdays from Nov 16 on, and piano lessons cancelled from Nov 18 on
        let document = try ICalendarDocument(parsing: PeerCalendars.zimbraRanges)

        // When November and December are expanded
        let occurrences = document.occurrences(in: try window("20261101T000000", "20270101T000000"), floatingZone: .gmt)

        // Then the bin day is on Mondays twice, then on Tuesdays, each one day long
        let bins = occurrences.filter { $0.summary.hasPrefix("Bin day") }
        #expect(
            bins.map(\.start) == [
                try utc("20261102T000000"), try utc("20261109T000000"), try utc("20261117T000000"), try utc("20261124T000000"),
                try utc("20261201T000000"),
            ]
        )
        #expect(bins.allSatisfy { $0.isAllDay && $0.duration == 86400 })
        // And the piano lessons take place twice, then are cancelled (kept, marked, not blocking time)
        let lessons = occurrences.filter { $0.summary == "Piano lesson" }
        #expect(lessons.map(\.status) == [.confirmed, .confirmed, .cancelled, .cancelled, .cancelled, .cancelled])
        #expect(lessons.map(\.blocksTime) == [true, true, false, false, false, false])
        #expect(lessons.last?.start == (try utc("20261209T160000")))
        #expect(document.problems.isEmpty)
    }

    @Test("copies of one UID: the later SEQUENCE (then LAST-MODIFIED) wins, no duplicates, deleted occurrences stay deleted")
    func duplicateUIDs() throws {
        // Given an Exchange feed with an old and a new copy of one series and of its exceptions
        let document = try ICalendarDocument(parsing: PeerCalendars.exchangeDuplicates)

        // When the week is expanded
        let occurrences = document.occurrences(in: try window("20261102T000000", "20261107T000000"), floatingZone: .gmt)

        // Then the new series (09:30, 15 minutes) is there once per day and the old one (09:00) nowhere;
        // Nov 4 (EXDATE) stays deleted despite its old exception; Nov 5's cancellation wins over its
        // older move; Nov 6 follows the copy modified last
        #expect(
            occurrences.map(\.start) == [
                try utc("20261102T083000"), try utc("20261103T083000"), try utc("20261105T083000"), try utc("20261106T110000"),
            ]
        )
        #expect(
            occurrences.map(\.summary) == [
                "Daily stand-up", "Daily stand-up", "Canceled: Daily stand-up", "Daily stand-up (after the all-hands)",
            ]
        )
        #expect(occurrences.map(\.status) == [.confirmed, .confirmed, .cancelled, .confirmed])
        #expect(occurrences.map(\.blocksTime) == [true, true, false, true])
        #expect(occurrences.allSatisfy { $0.duration == 900 })
        #expect(document.problems.isEmpty)
    }

    @Test("an empty or invalid RRULE keeps the event's own start and the calendar says which rule of which event")
    func damagedRules() throws {
        // Given Google Calendar events with `RRULE:`, FREQ=SOMETIMES and BYDAY=XX, and a sound weekly one
        let document = try ICalendarDocument(parsing: PeerCalendars.googleDamagedRules)

        // When the week is expanded
        let occurrences = document.occurrences(in: try window("20261123T000000", "20261207T000000"), floatingZone: .gmt)

        // Then each damaged event happens once, at its DTSTART, and the sound one weekly
        #expect(occurrences.map(\.summary) == ["Physio", "Yoga", "Run club", "Swim", "Swim"])
        #expect(
            occurrences.map(\.start) == [
                try utc("20261123T063000"), try utc("20261124T170000"), try utc("20261125T180000"),
                try utc("20261126T060000"), try utc("20261203T060000"),
            ]
        )
        // And each damaged rule is a problem naming the event, its UID, the rule and what is wrong
        let messages = document.problems.map(\.description)
        #expect(messages.count == 3)
        #expect(
            messages.contains {
                $0.hasPrefix("line 11: ") && $0.contains("“Physio”") && $0.contains("0v5c9kq1r3m8t2s6u4w7y9a1b3@google.com")
                    && $0.contains("RRULE “”") && $0.contains("FREQ is missing") && $0.contains("only its own start")
            }
        )
        #expect(messages.contains { $0.contains("“Yoga”") && $0.contains("RRULE “FREQ=SOMETIMES”") })
        #expect(
            messages.contains {
                $0.contains("“Run club”") && $0.contains("RRULE “FREQ=WEEKLY;BYDAY=XX”") && $0.contains("BYDAY “XX” is not a weekday")
            }
        )
    }

    @Test("two RRULEs on one event give the union of both sets, each date once")
    func twoRules() throws {
        // Given an iCal 1.5 event repeating on 4 Tuesdays and on the 1st, 15th and 31st 4 times
        let document = try ICalendarDocument(parsing: PeerCalendars.twoRules)

        // When the winter is expanded
        let occurrences = document.occurrences(in: try window("20261101T000000", "20270301T000000"), floatingZone: .gmt)

        // Then both sets are there, Dec 1 and Dec 15 once
        #expect(
            occurrences.map(\.start) == [
                try utc("20261201T170000"), try utc("20261208T170000"), try utc("20261215T170000"),
                try utc("20261222T170000"), try utc("20261231T170000"), try utc("20270101T170000"),
            ]
        )
        #expect(occurrences.allSatisfy { $0.duration == 5400 })
        #expect(document.problems.isEmpty)
    }

    @Test("each RDATE period lasts as long as its own end or length says, not as long as the event")
    func rdatePeriods() throws {
        // Given Thunderbird's 30-minute event with periods ending at 04:00, lasting PT3H and PT2H in New York
        let document = try ICalendarDocument(parsing: PeerCalendars.rdatePeriods)

        // When the week is expanded
        let occurrences = document.occurrences(in: try window("19960401T000000", "19960408T000000"), floatingZone: .gmt)

        // Then each occurrence has its own length
        #expect(
            occurrences.map(\.start) == [
                try utc("19960402T010000"), try utc("19960403T020000"), try utc("19960404T010000"), try utc("19960405T140000"),
            ]
        )
        #expect(
            occurrences.map(\.end) == [
                try utc("19960402T013000"), try utc("19960403T040000"), try utc("19960404T040000"), try utc("19960405T160000"),
            ]
        )
        #expect(document.problems.isEmpty)
    }

    @Test("a VTIMEZONE observance that starts on a DATE still gives the zone's summer and winter offsets")
    func dateStartObservances() throws {
        // Given Lotus Notes zones whose STANDARD (and in one also DAYLIGHT) starts on a DATE
        let document = try ICalendarDocument(parsing: PeerCalendars.dateStartZones)

        // When the year is expanded
        let occurrences = document.occurrences(in: try window("20260101T000000", "20270101T000000"), floatingZone: .gmt)

        // Then 14:00 is 12:00 UTC in summer and 13:00 UTC in winter in both zones, with no problem
        #expect(occurrences.map(\.summary) == ["Summer review", "Summer review (zone 1)", "Winter review", "Winter review (zone 1)"])
        #expect(
            occurrences.map(\.start) == [
                try utc("20260715T120000"), try utc("20260715T120000"), try utc("20261215T130000"), try utc("20261215T130000"),
            ]
        )
        #expect(document.problems.isEmpty)
    }
}
