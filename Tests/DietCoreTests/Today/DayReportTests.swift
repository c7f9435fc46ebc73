import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Day report")
struct DayReportTests {
    let start = LocalDate.ymd(2026, 1, 5)

    func input(
        _ profile: Profile = .alice,
        today: LocalDate,
        meals: [MealEntry] = [],
        weights: [WeightEntry] = [],
        state: CycleState? = nil
    ) -> DayReport.Input {
        DayReport.Input(
            profile: profile,
            startDate: start,
            today: today,
            hour: 13,
            meals: meals,
            weights: weights,
            activeDays: [],
            cycleState: state
        )
    }

    @Test("a new user's first morning: habit week at maintenance, neutral smileys, prompt for weight")
    func firstMorning() {
        let report = DayReport(input(today: start))
        #expect(report.cycle?.phase == .habit && report.targets.kcal == 1986 && report.nextTargets?.kcal == 1390)
        #expect(report.smileys == [.neutral, .neutral, .neutral])
        #expect(report.weight.promptToday && report.streak.count == 0)
        #expect(report.coach.variation == .glasses)
    }

    @Test("maintain and gain have a static target and no cycle")
    func noCycle() {
        let report = DayReport(input(.kim, today: start.adding(days: 30)))
        #expect(report.cycle == nil && report.nextTargets == nil && report.phaseSwitch == nil)
        #expect(report.targets.kcal == 2011 && report.targets.kind == .maintenance)
    }

    @Test("the latest weight resets the macro goals")
    func latestWeight() throws {
        let report = DayReport(input(today: start.adding(days: 2), weights: [try WeightEntry(date: start.adding(days: 1), kg: 70)]))
        // 70 kg is below the BMI-25 reference of 70.6 kg: protein 2 × 70; fat 25 % of the energy
        #expect(report.targets.proteinG == 140)
        #expect(report.targets.fatG == (Double(report.targets.kcal * 10) / 36).rounded() / 10)
        #expect(report.streak.count == 1 && !report.streak.isLit)
    }

    @Test("logging today lights the streak and moves the ring")
    func logged() throws {
        let meal = try MealEntry(
            name: "Skyr",
            kcal: 300,
            proteinG: 40,
            carbsG: 20,
            fatG: 2,
            at: start.instant(at: .hm(12), in: Zones.berlin),
            in: Zones.berlin
        )
        let report = DayReport(input(today: start, meals: [meal]))
        #expect(report.streak.isLit && report.streak.count == 1)
        #expect(report.calories.remainingKcal == 1686)
        // 160 kcal of protein of 1,986 → 29.0°
        #expect(abs(report.ring.segments[0].endDegrees - 160.0 / 1986 * 360) < 1e-9)
    }

    @Test("the phase-switch message is part of the report until acknowledged")
    func phaseSwitch() {
        let state = CycleState.start(on: start, preset: .openEnded, timeZone: Zones.berlin)
        let report = DayReport(input(today: start.adding(days: 7), state: state))
        #expect(report.phaseSwitch?.to == .diet)
        let shown = state.announcing(report.cycle ?? CycleEngine(startDate: start, preset: .openEnded).day(on: start))
        #expect(DayReport(input(today: start.adding(days: 7), state: shown)).phaseSwitch == nil)
    }
}
