import DietCore
import Foundation
import ReadyDay
import TestSupport
import Testing

@Suite("ReadyDay briefing")
struct BriefingTests {
    let zone = Zones.berlin
    let day = LocalDate.ymd(2026, 11, 23)

    private func at(_ hour: Int, _ minute: Int = 0) -> Date {
        day.instant(at: .hm(hour, minute), in: zone)
    }

    private func event(_ title: String, _ start: (Int, Int), _ end: (Int, Int), people: Int = 0, blocks: Bool = true) -> CalendarEvent {
        CalendarEvent(title: title, start: at(start.0, start.1), end: at(end.0, end.1), attendeeCount: people, blocksTime: blocks)
    }

    @Test("recovery zones: green 67–100, yellow 34–66, red 0–33, unknown without a score")
    func zones() {
        #expect([100, 67, 66, 34, 33, 0].map { RecoveryZone.from(score: $0) } == [.green, .green, .yellow, .yellow, .red, .red])
        #expect(RecoveryZone.from(score: nil) == .unknown)
        #expect(RecoveryZone.from(score: 101) == .unknown)
    }

    @Test("event demand from duration, attendees, the post-lunch dip and keywords")
    func demand() {
        let review = DemandClassifier.classify(event("Quarterly review", (14, 0), (15, 30), people: 10), timeZone: zone)
        #expect(review.points == 8 && review.demand == .high)
        let workshop = DemandClassifier.classify(event("Design workshop", (9, 0), (10, 30), people: 5), timeZone: zone)
        #expect(workshop.points == 4 && workshop.demand == .medium)
        let coffee = DemandClassifier.classify(event("Coffee with Ana", (10, 0), (10, 30), people: 1), timeZone: zone)
        #expect(coffee.points == 1 && coffee.demand == .low)
        let german = DemandClassifier.classify(event("Quartalsplanung Vorstand", (13, 0), (15, 0), people: 3), timeZone: zone)
        #expect(german.demand == .high)
    }

    @Test("calendar load weighs hours by demand, ignores cancelled and free events, and stops at 100")
    func load() {
        let events = [
            event("Quarterly review", (14, 0), (15, 30), people: 10), event("Design workshop", (9, 0), (10, 30), people: 5),
            event("Cancelled board meeting", (16, 0), (18, 0), people: 9, blocks: false),
        ]
        let classified = events.map { DemandClassifier.classify($0, timeZone: zone) }
        #expect(CalendarLoad.score(classified) == 1.5 * 15 + 1.5 * 8)
        let packed = (8..<18).map { event("Strategy review \($0)", ($0, 0), ($0 + 1, 0), people: 9) }.map {
            DemandClassifier.classify($0, timeZone: zone)
        }
        #expect(CalendarLoad.score(packed) == 100)
    }

    @Test("acceptance: red recovery, 5.5 h of sleep, a three-hour meeting block and a quarterly review on a diet day")
    func acceptanceScenario() {
        let input = BriefingInput(
            date: day,
            timeZone: zone,
            now: at(6, 30),
            recovery: Recovery(score: 28, restingHeartRate: 58, hrvMilliseconds: 31, recordedAt: at(6, 10)),
            sleep: Sleep(asleep: 5.5 * 3600, efficiency: 0.86, need: 8.1 * 3600, endedAt: at(6, 0)),
            events: [
                event("Design workshop", (9, 0), (10, 30), people: 5),
                event("Roadmap sync", (10, 30), (12, 0), people: 6),
                event("Lunch", (12, 30), (13, 0)),
                event("Quarterly review", (14, 0), (15, 30), people: 10),
            ],
            phase: .diet,
            whoopUpdatedAt: at(6, 15),
            whoopConnected: true
        )
        let briefing = BriefingGenerator.generate(input)
        #expect(briefing.zone == .red)
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
        #expect(Localizer(.de).render(briefing.recommendations[2].title) == "Du hast nur 5,5 h geschlafen")
        #expect(Localizer(.es).render(briefing.recommendations[1].title) == "Considera mover «Quarterly review»")
        #expect(briefing.alerts.map(\.event.title) == ["Quarterly review"])
        #expect(briefing.alerts.first?.alertAt == at(13, 45))
        #expect(briefing.nutrition == .proteinFirstNoExtraDeficit)
        #expect(briefing.workoutWindows.map(\.intensity) == [.recovery, .recovery])
        #expect(briefing.workoutWindows.last?.start == at(16, 0))
        #expect(briefing.workoutWindows.first?.start == at(6, 30))
        #expect(briefing.workoutWindows.first?.end == at(9, 0))
        #expect(briefing.notes.isEmpty)
    }

    @Test("without WHOOP the briefing is calendar-only; without a calendar recovery-only; old data is marked")
    func degradation() {
        let calendarOnly = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7),
                events: [event("Strategy offsite", (9, 0), (12, 30), people: 12)]
            )
        )
        #expect(calendarOnly.zone == .unknown)
        #expect(calendarOnly.recommendations.map(\.rule) == ["calendar.marathon"])
        #expect(calendarOnly.notes.map(\.key) == ["readyday.note.noWhoop"])
        #expect(calendarOnly.workoutWindows.first?.intensity == .moderate)

        let recoveryOnly = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7),
                recovery: Recovery(score: 80, recordedAt: at(6)),
                whoopConnected: true
            )
        )
        #expect(recoveryOnly.load == nil && recoveryOnly.events == nil)
        #expect(recoveryOnly.recommendations.map(\.rule) == ["recovery.green", "recovery.green.workout"])
        #expect(recoveryOnly.notes.map(\.key) == ["readyday.note.noCalendar"])

        let stale = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7),
                recovery: Recovery(score: 50, recordedAt: at(7).addingTimeInterval(-3 * 86400)),
                events: [],
                whoopConnected: true
            )
        )
        #expect(stale.notes.map(\.key) == ["readyday.note.stale"])

        let nothing = BriefingGenerator.generate(BriefingInput(date: day, timeZone: zone, now: at(7)))
        #expect(nothing.notes.map(\.key) == ["readyday.note.noSources"])
        let pending = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7),
                recovery: Recovery(score: nil, recordedAt: at(6)),
                events: [],
                whoopConnected: true
            )
        )
        #expect(pending.notes.map(\.key) == ["readyday.note.notScored"])
        #expect(pending.recommendations.isEmpty)
    }

    @Test("a busy day with moderate recovery, and low sleep efficiency, each add their rule")
    func yellowBusyDay() {
        let events = (9..<15).map { event("Planning \($0)", ($0, 0), ($0 + 1, 0), people: 6) }
        let briefing = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7),
                recovery: Recovery(score: 50, recordedAt: at(6)),
                sleep: Sleep(asleep: 7 * 3600, efficiency: 0.7, endedAt: at(6)),
                events: events,
                phase: .maintenance,
                whoopConnected: true
            )
        )
        #expect(briefing.recommendations.map(\.rule) == ["calendar.busy.yellow", "calendar.marathon", "recovery.yellow", "sleep.efficiency"])
        #expect(briefing.nutrition == .maintain)
    }

    @Test("workout windows keep the preparation time after events and stay in the preferred hours")
    func windows() {
        let events = [event("Gym class", (7, 0), (8, 0)), event("Work block", (9, 0), (17, 0)), event("Dinner", (19, 0), (20, 0))]
        let preferences = WorkoutPreferences(windows: [360...1260], preparation: 30 * 60, minimum: 60 * 60)
        let windows = WorkoutWindowFinder.windows(on: day, events: events, zone: .green, preferences: preferences, timeZone: zone, now: at(5))
        #expect(windows.map(\.start) == [at(6, 0), at(17, 30)])
        #expect(windows.map(\.end) == [at(7, 0), at(19, 0)])
        #expect(windows.first?.intensity == .high)
    }

    @Test("rules are open for extension: a custom rule list replaces the defaults")
    func customRules() {
        struct Hydration: RecommendationRule {
            func recommendations(in context: BriefingContext) -> [Recommendation] {
                [Recommendation(rule: "custom.water", kind: .info, priority: .low, title: Message("x"), body: Message("y"))]
            }
        }
        let briefing = BriefingGenerator.generate(BriefingInput(date: day, timeZone: zone, now: at(7)), rules: [Hydration()])
        #expect(briefing.recommendations.map(\.rule) == ["custom.water"])
    }
}
