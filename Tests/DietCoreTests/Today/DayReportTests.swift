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

@Suite("Smileys through the day (docs/rules.md §5)")
struct ProRatedSmileyTests {
    let day = LocalDate.ymd(2026, 1, 5)

    /// Moments at 07:30, 12:30 and 18:30; a breakfast at 07:45 with a third of each goal's
    /// worth at 80 % (protein 15 of 145 g was issue 30's finding: three frowns).
    func report(at time: TimeOfDay, dayIsOver: Bool = false, share: Double = 0.8 / 3) throws -> DayReport {
        var profile = Profile.alice
        profile.eatingWindow = try EatingWindow(
            start: .hm(7, 30),
            end: .hm(18, 30),
            moments: [.hm(7, 30), .hm(12, 30), .hm(18, 30)]
        )
        let plain = DayReport(.init(profile: profile, startDate: day, today: day, hour: 7, meals: [], weights: [], activeDays: []))
        let goals = plain.targets
        let breakfast = try MealEntry(
            name: "Frühstück",
            kcal: 400,
            proteinG: goals.proteinG * share,
            carbsG: goals.carbsG * share,
            fatG: goals.fatG * share,
            at: day.instant(at: .hm(7, 45), in: Zones.berlin),
            in: Zones.berlin
        )
        return DayReport(
            .init(
                profile: profile,
                startDate: day,
                today: day,
                hour: time.hour,
                time: time,
                dayIsOver: dayIsOver,
                meals: [breakfast],
                weights: [],
                activeDays: []
            )
        )
    }

    @Test("one breakfast at 07:45 is judged against the first third: three smiles, not three frowns")
    func breakfast() throws {
        let morning = try report(at: .hm(7, 50))
        #expect(morning.smileys == [.good, .good, .good])
        // the bars and numbers show the whole day's goal
        #expect(morning.macros.map(\.goalG) == [morning.targets.proteinG, morning.targets.carbsG, morning.targets.fatG])
        // and the coach does not praise a whole day met
        #expect(!morning.allMacrosGood)
    }

    @Test("the share grows as the moments begin: at 13:00 two thirds are due, from 18:30 all")
    func later() throws {
        #expect(try report(at: .hm(13, 0)).smileys == [.needsAttention, .needsAttention, .needsAttention])
        #expect(try report(at: .hm(13, 0), share: 0.5).smileys == [.good, .good, .good])
        #expect(try report(at: .hm(18, 30), share: 0.5).smileys == [.onTrack, .onTrack, .onTrack])
        #expect(try report(at: .hm(18, 29), share: 0.5).smileys == [.good, .good, .good])
    }

    @Test("a past day is judged against its whole goal")
    func pastDay() throws {
        #expect(try report(at: .hm(7, 50), dayIsOver: true).smileys == [.needsAttention, .needsAttention, .needsAttention])
    }

    @Test("above is about the whole goal: 130 % of the share due by 07:50 is not above anything")
    func notAboveEarly() throws {
        #expect(try report(at: .hm(7, 50), share: 1.3 / 3).smileys == [.good, .good, .good])
    }

    @Test("the grams over are those shown: 153 of 124 g is 29 g over (issue 30 showed '30 g über')")
    func overAsShown() {
        let carbs = MacroProgress(macro: .carbs, eatenG: 153.4, goalG: 123.6, smiley: .above)
        #expect(carbs.overG == 29)
        #expect(Localizer(.de).render(carbs.statusMessage).contains("29 g"))
    }
}
