import DietCore
import Foundation
import TestSupport
import Testing

@Suite("The day in recovery mode")
struct RecoveryDayReportTests {
    let start = LocalDate.ymd(2026, 1, 5)
    /// Programme day 12, a diet day.
    var today: LocalDate { start.adding(days: 11) }

    func input(since: LocalDate?, hour: Int = 13, meals: [MealEntry] = [], mindful: [MindfulMealEntry] = []) -> DayReport.Input {
        DayReport.Input(
            profile: .alice,
            startDate: start,
            today: today,
            hour: hour,
            meals: meals,
            weights: [],
            activeDays: [],
            recoverySince: since,
            mindfulMeals: mindful
        )
    }

    func mindful(_ name: String, at hour: Int) throws -> MindfulMealEntry {
        try MindfulMealEntry(
            name: name,
            hunger: .hungry,
            fullness: .satisfied,
            at: today.instant(at: .hm(hour), in: Zones.berlin),
            in: Zones.berlin
        )
    }

    @Test("with recovery mode on, a diet day eats at maintenance and shows as paused")
    func pausedTarget() {
        let off = DayReport(input(since: nil))
        let on = DayReport(input(since: today.adding(days: -2)))
        #expect(off.cycle?.phase == .diet && off.targets.kind == .deficit && off.recovery == nil)
        #expect(on.cycle?.paused == true && on.targets.kind == .maintenance && on.recoveryMode)
        #expect(on.phaseSwitch == nil)
    }

    @Test("today's meals are shown against the eating moments, mindful or not")
    func moments() throws {
        // Given alice's default moments and a meal at 12:00 plus a mindful meal at 19:00
        let lunch = try MealEntry(name: "Soup", kcal: 1234, at: today.instant(at: .hm(12), in: Zones.berlin), in: Zones.berlin)
        let report = DayReport(input(since: today, hour: 20, meals: [lunch], mindful: [try mindful("Pasta with friends", at: 19)]))
        let recovery = try #require(report.recovery)
        // Then each meal sits under its moment, and the others are empty
        let eaten = recovery.moments.filter(\.hadMeal).flatMap(\.names)
        #expect(eaten == ["Soup", "Pasta with friends"])
        #expect(recovery.moments.count == Profile.alice.eatingWindow.moments.count)
        #expect(recovery.moments.contains { !$0.hadMeal })
        #expect(recovery.anythingLogged)
    }

    @Test("a mindful meal lights today's streak")
    func mindfulIsActive() throws {
        let quiet = DayReport(input(since: today))
        let logged = DayReport(input(since: today, mindful: [try mindful("Toast", at: 8)]))
        #expect(!quiet.streak.isLit)
        #expect(logged.streak.isLit)
    }

    @Test(
        "the coach is gentle and speaks without numbers in recovery mode",
        arguments: [
            (0, 13, false, CoachAdvice.Situation.recoveryStart), (2, 8, false, .recoveryMorning),
            (2, 13, true, .recoveryLogged), (2, 20, false, .recoveryEvening),
        ]
    )
    func coach(daysOn: Int, hour: Int, logged: Bool, situation: CoachAdvice.Situation) throws {
        let meals = logged ? [try mindful("Rice", at: 12)] : []
        let report = DayReport(input(since: today.adding(days: -daysOn), hour: hour, mindful: meals))
        #expect(report.coach.situation == situation)
        #expect(report.coach.variation == .gentle)
        #expect(report.coach.message.arguments.isEmpty)
        for language in Language.allCases {
            let line = Localizer(language).render(report.coach.message)
            #expect(line.rangeOfCharacter(from: .decimalDigits) == nil, "\(language): \(line)")
            #expect(Localizer(language).hasKey(report.coach.message.key))
        }
    }

    @Test("without recovery mode the coach still celebrates and counts")
    func ordinaryCoach() {
        let report = DayReport(input(since: nil, hour: 20))
        #expect(report.coach.situation == .quietEvening)
    }
}
