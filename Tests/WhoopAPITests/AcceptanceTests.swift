import DietCore
import Foundation
import ICalendar
import ReadyDay
import Testing

@testable import WhoopAPI

/// The acceptance scenario of the ReadyDay issue, from the formats the app really reads: a
/// WHOOP day as the API sends it (red recovery, 5.5 h of sleep) and an .ics calendar with a
/// three-hour meeting block and a quarterly review.
@Suite("ReadyDay acceptance from recorded data")
struct AcceptanceTests {
    static let recovery = #"""
        {"cycle_id":93845,"sleep_id":"123e4567-e89b-12d3-a456-426614174000","user_id":10129,"created_at":"2026-11-23T05:41:12.418Z",
         "updated_at":"2026-11-23T05:43:01.112Z","score_state":"SCORED",
         "score":{"user_calibrating":false,"recovery_score":28,"resting_heart_rate":61,"hrv_rmssd_milli":24.7,"spo2_percentage":95.6,"skin_temp_celsius":33.9}}
        """#
    static let sleep = #"""
        {"id":"123e4567-e89b-12d3-a456-426614174000","cycle_id":93845,"user_id":10129,"created_at":"2026-11-23T05:40:00.000Z",
         "updated_at":"2026-11-23T05:40:00.000Z","start":"2026-11-22T23:05:00.000Z","end":"2026-11-23T05:35:00.000Z","timezone_offset":"+01:00",
         "nap":false,"score_state":"SCORED","score":{"stage_summary":{"total_in_bed_time_milli":23400000,"total_awake_time_milli":3600000,
         "total_no_data_time_milli":0,"total_light_sleep_time_milli":10800000,"total_slow_wave_sleep_time_milli":4500000,
         "total_rem_sleep_time_milli":4500000,"sleep_cycle_count":4,"disturbance_count":14},"sleep_needed":{"baseline_milli":27000000,
         "need_from_sleep_debt_milli":1800000,"need_from_recent_strain_milli":360000,"need_from_recent_nap_milli":0},
         "respiratory_rate":15.9,"sleep_performance_percentage":65,"sleep_consistency_percentage":71,"sleep_efficiency_percentage":84.6}}
        """#
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp//Outlook 16.0//EN\r
        BEGIN:VEVENT\r
        UID:workshop-1\r
        DTSTART;TZID=W. Europe Standard Time:20261123T090000\r
        DTEND;TZID=W. Europe Standard Time:20261123T103000\r
        SUMMARY:Design workshop\r
        ATTENDEE;CN=Ana:mailto:ana@example.org\r
        ATTENDEE;CN=Ben:mailto:ben@example.org\r
        ATTENDEE;CN=Cleo:mailto:cleo@example.org\r
        ATTENDEE;CN=Dev:mailto:dev@example.org\r
        ATTENDEE;CUTYPE=ROOM;CN=Room 4:mailto:room4@example.org\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:roadmap\r
        DTSTART;TZID=W. Europe Standard Time:20261116T103000\r
        DTEND;TZID=W. Europe Standard Time:20261116T120000\r
        RRULE:FREQ=WEEKLY;BYDAY=MO\r
        SUMMARY:Roadmap sync\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:qbr\r
        DTSTART:20261123T130000Z\r
        DTEND:20261123T143000Z\r
        SUMMARY:Quarterly review\r
        ATTENDEE:mailto:a@example.org\r
        ATTENDEE:mailto:b@example.org\r
        ATTENDEE:mailto:c@example.org\r
        ATTENDEE:mailto:d@example.org\r
        ATTENDEE:mailto:e@example.org\r
        ATTENDEE:mailto:f@example.org\r
        ATTENDEE:mailto:g@example.org\r
        ATTENDEE:mailto:h@example.org\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:lunch\r
        DTSTART;TZID=Europe/Berlin:20261123T123000\r
        DURATION:PT30M\r
        SUMMARY:Lunch\r
        TRANSP:TRANSPARENT\r
        END:VEVENT\r
        END:VCALENDAR\r
        """

    @Test("red recovery, 5.5 h of sleep, a three-hour block and a quarterly review give the expected recommendations in order")
    func scenario() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let day = LocalDate(year: 2026, month: 11, day: 23)!
        let recovery = try JSONDecoder.whoop.decode(WhoopRecovery.self, from: Data(Self.recovery.utf8)).domain
        let sleep = try #require(try JSONDecoder.whoop.decode(WhoopSleep.self, from: Data(Self.sleep.utf8)).domain)
        let document = try ICalendarDocument(parsing: Self.calendar)
        let start = day.instant(at: TimeOfDay(minutesSinceMidnight: 0), in: berlin)
        let events = document.occurrences(in: DateInterval(start: start, duration: 86400), floatingZone: berlin).map {
            CalendarEvent(
                title: $0.summary,
                start: $0.start,
                end: $0.end,
                attendeeCount: $0.attendees.filter(\.isPerson).count,
                blocksTime: $0.blocksTime,
                isAllDay: $0.isAllDay
            )
        }
        let briefing = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: berlin,
                now: day.instant(at: TimeOfDay(minutesSinceMidnight: 7 * 60), in: berlin),
                recovery: recovery,
                sleep: sleep,
                events: events,
                phase: .diet,
                whoopConnected: true
            )
        )

        #expect(briefing.zone == .red)
        #expect(briefing.events?.map(\.demand) == [.medium, .low, .low, .high])
        #expect(
            briefing.recommendations.map(\.rule) == ["recovery.red", "recovery.red.move", "sleep.short", "calendar.marathon", "recovery.red.workout"]
        )
        let english = Localizer(.en)
        #expect(
            briefing.recommendations.map { english.render($0.title) } == [
                "Low recovery (28 %)", "Consider moving “Quarterly review”", "You slept only 5.5 h", "Meeting marathon ahead",
                "Active recovery only today",
            ]
        )
        #expect(english.render(briefing.recommendations[3].body) == "3 h of back-to-back meetings from 09:00. Try to take a break.")
        #expect(briefing.nutrition == .proteinFirstNoExtraDeficit)
        #expect(briefing.alerts.map(\.event.title) == ["Quarterly review"])
        #expect(sleep.need == 29_160)
    }
}
