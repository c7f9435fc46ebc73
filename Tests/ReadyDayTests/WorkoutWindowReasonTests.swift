import DietCore
import Foundation
import ReadyDay
import TestSupport
import Testing

/// Every workout window carries why it was chosen, and recovery mode's nutrition emphasis
/// holds no amounts.
@Suite("ReadyDay: why a workout window, and the calm nutrition emphasis")
struct WorkoutWindowReasonTests {
    let zone = Zones.berlin
    let day = LocalDate.ymd(2026, 11, 23)

    private func at(_ hour: Int, _ minute: Int = 0) -> Date {
        day.instant(at: .hm(hour, minute), in: zone)
    }

    private func event(_ title: String, _ start: (Int, Int), _ end: (Int, Int)) -> CalendarEvent {
        CalendarEvent(title: title, start: at(start.0, start.1), end: at(end.0, end.1))
    }

    @Test("each window names its gap, the preparation kept, the preferred hours, the longest, and the recovery behind the intensity")
    func reasons() {
        // Given a day with three events and yellow recovery (55 %)
        let events = [
            event("Design workshop", (9, 0), (10, 30)), event("Lunch talk", (11, 0), (12, 0)),
            event("Quarterly review", (14, 0), (15, 30)),
        ]
        // When the windows are found at 05:00
        let windows = WorkoutWindowFinder.windows(
            on: day,
            events: events,
            zone: .yellow,
            preferences: WorkoutPreferences(),
            timeZone: zone,
            now: at(5),
            recoveryScore: 55
        )
        // Then: before the first event, between two (after 30 minutes' preparation), after the last (the longest)
        #expect(windows.map(\.start) == [at(6), at(12, 30), at(16)])
        #expect(windows.map(\.reason.gap) == [.beforeFirst, .between, .afterLast])
        #expect(windows[0].reason.before == "Design workshop" && windows[0].reason.after == nil && windows[0].reason.preparationMinutes == nil)
        #expect(windows[1].reason.after == "Lunch talk" && windows[1].reason.before == "Quarterly review")
        #expect(windows[1].reason.preparationMinutes == 30)
        #expect(windows[2].reason.after == "Quarterly review" && windows[2].reason.preparationMinutes == 30)
        #expect(windows.map(\.reason.longest) == [false, false, true])
        #expect(windows.allSatisfy { $0.reason.preferredFrom == 360 && $0.reason.preferredTo == 1260 })
        #expect(windows.allSatisfy { $0.reason.zone == .yellow && $0.reason.score == 55 && $0.intensity == .moderate })
        #expect(windows.allSatisfy { !$0.reason.startsNow })
    }

    @Test("a free day's window starts now inside the preferred hours and is not called the longest of one")
    func freeDay() {
        // Given no events, red recovery, and the morning half gone
        let briefing = BriefingGenerator.generate(
            BriefingInput(
                date: day,
                timeZone: zone,
                now: at(7, 15),
                recovery: Recovery(score: 20, recordedAt: at(6)),
                events: [],
                whoopConnected: true
            )
        )
        // Then one window from now to 21:00, for active recovery because recovery is red
        let window = briefing.workoutWindows.first
        #expect(briefing.workoutWindows.count == 1)
        #expect(window?.start == at(7, 15) && window?.end == at(21))
        #expect(window?.reason.gap == .freeDay && window?.reason.startsNow == true && window?.reason.longest == false)
        #expect(window?.reason.zone == .red && window?.reason.score == 20 && window?.intensity == .recovery)
    }

    @Test("recovery mode: the nutrition emphasis speaks of rest and regular meals, never of deficits, targets or protein")
    func calmNutrition() {
        // Given a diet day with red recovery
        let input = BriefingInput(
            date: day,
            timeZone: zone,
            now: at(7),
            recovery: Recovery(score: 20, recordedAt: at(6)),
            events: [],
            phase: .diet,
            whoopConnected: true
        )
        let counting = BriefingGenerator.generate(input)
        #expect(counting.nutrition == .proteinFirstNoExtraDeficit)
        #expect(counting.recommendations.contains { $0.kind == .nutrition })
        // When recovery mode is on
        var calm = input
        calm.recoveryMode = true
        let briefing = BriefingGenerator.generate(calm)
        // Then the emphasis is words only, and no nutrition advice about amounts is given
        #expect(briefing.nutrition == .restAndNourish)
        #expect(!briefing.recommendations.contains { $0.kind == .nutrition })
        for language in Language.allCases {
            let text = Localizer(language).render(briefing.nutrition!.message)
            #expect(!text.contains("[[") && !text.contains(where: \.isNumber), "\(language): \(text)")
        }
        let english = Localizer(.en).render(briefing.nutrition!.message).lowercased()
        #expect(!["deficit", "target", "protein", "calorie", "kcal"].contains { english.contains($0) })
        calm.recovery = Recovery(score: 80, recordedAt: at(6))
        #expect(BriefingGenerator.generate(calm).nutrition == .eatRegularly)
    }
}
