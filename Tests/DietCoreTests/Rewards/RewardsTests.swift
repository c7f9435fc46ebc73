import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Badges and points")
struct RewardsTests {
    let start = LocalDate.ymd(2026, 1, 5)

    /// `count` consecutive active days from `from`, each with `meals` meals.
    func active(
        _ count: Int,
        from: LocalDate? = nil,
        meals: Int = 1,
        good: Bool = false,
        weight: Double? = nil,
        opened: Bool = false
    ) -> [DayRecord] {
        (0..<count).map {
            DayRecord(
                date: (from ?? start).adding(days: $0),
                mealCount: meals,
                weightKg: weight,
                allMacrosGood: good,
                opened: opened
            )
        }
    }

    @Test("points are whole numbers: each day's shown decay is the difference of the shown balances (issue 30: '−9,1 Schwund')")
    func wholeDecay() {
        // ten active days, nine away (5 % a day after the broken streak, then 1 %), three back, two away
        let records = active(10, meals: 3) + active(3, from: start.adding(days: 19), meals: 2)
        let ledger = PointsLedger(records: records, through: start.adding(days: 23))
        var shown = 0
        var fractional = false
        for day in ledger.days {
            #expect(shown + Int(day.earned) - day.shownDecay == day.shownBalance, "\(day.date)")
            fractional = fractional || day.decayed.rounded() != day.decayed
            shown = day.shownBalance
        }
        // the ledger's own decay has fractions: the shown one never does
        #expect(fractional && ledger.days.contains { $0.shownDecay > 0 })
        #expect(Localizer(.de).text("points.decayed", ["points": .integer(ledger.days[12].shownDecay)]).contains(",") == false)
    }

    @Test("streak badges at 7, 30, 90 and 365 days, not one day earlier", arguments: zip([7, 30, 90, 365], Badge.Tier.allCases))
    func streakBadges(days: Int, tier: Badge.Tier) {
        let short = BadgeEvaluator.earned(records: active(days - 1), goal: .lose, engine: nil, through: start.adding(days: 400))
        let enough = BadgeEvaluator.earned(records: active(days), goal: .lose, engine: nil, through: start.adding(days: 400))
        #expect(short[Badge(.streak, tier)] == nil)
        #expect(enough[Badge(.streak, tier)] == start.adding(days: days - 1))
    }

    @Test("milestone badges at 50, 200, 500 and 1,000 meals", arguments: zip([50, 200, 500, 1000], Badge.Tier.allCases))
    func mealBadges(meals: Int, tier: Badge.Tier) {
        // 10 meals a day: the threshold is crossed on day meals/10
        let records = active(100, meals: 10)
        let earned = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: 200))
        #expect(earned[Badge(.milestone, tier)] == start.adding(days: meals / 10 - 1))
        let fewer = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: meals / 10 - 2))
        #expect(fewer[Badge(.milestone, tier)] == nil)
    }

    @Test("badges are never lost: a later gap keeps the streak badge")
    func neverLost() {
        let records = active(7) + active(1, from: start.adding(days: 30))
        let earned = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: 60))
        #expect(earned[Badge(.streak, .bronze)] == start.adding(days: 6))
    }

    @Test("an adherent MATADOR cycle: 70 % of its 28 days with every macro on target")
    func adherence() {
        let engine = CycleEngine(startDate: start, preset: .openEnded)
        let cycleStart = start.adding(days: 7)
        // 20 of 28 days good (71 %) → earned on the cycle's last day; 19 (68 %) → not
        let good = active(7) + active(20, from: cycleStart, good: true) + active(8, from: cycleStart.adding(days: 20))
        let almost = active(7) + active(19, from: cycleStart, good: true) + active(9, from: cycleStart.adding(days: 19))
        let last = cycleStart.adding(days: 27)
        #expect(BadgeEvaluator.earned(records: good, goal: .lose, engine: engine, through: last)[Badge(.adherence, .bronze)] == last)
        #expect(BadgeEvaluator.earned(records: good, goal: .lose, engine: engine, through: last.adding(days: -1))[Badge(.adherence, .bronze)] == nil)
        #expect(BadgeEvaluator.earned(records: almost, goal: .lose, engine: engine, through: last)[Badge(.adherence, .bronze)] == nil)
    }

    @Test("weight progress: 2 % below the first weight on the 7-entry average, kept after a rebound")
    func weightProgress() {
        // 100.0 then 97.0 daily: averages 100, 98.5, 98.0 (2 % on day 3), 97.75 …
        let records =
            [DayRecord(date: start, mealCount: 0, weightKg: 100, allMacrosGood: false, opened: false)]
            + active(6, from: start.adding(days: 1), meals: 0, weight: 97)
            + active(10, from: start.adding(days: 7), meals: 0, weight: 101)
        let earned = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: 30))
        #expect(earned[Badge(.weightProgress, .bronze)] == start.adding(days: 2))
        #expect(earned[Badge(.weightProgress, .silver)] == nil)
    }

    @Test("gaining counts upwards for the goal gain")
    func gain() {
        let records =
            [DayRecord(date: start, mealCount: 0, weightKg: 60, allMacrosGood: false, opened: false)]
            + active(6, from: start.adding(days: 1), meals: 0, weight: 64)
        let earned = BadgeEvaluator.earned(records: records, goal: .gain, engine: nil, through: start.adding(days: 10))
        // averages 60, 62 (3.3 %) → bronze on day 2; 62.67 (4.4 %), 63 (5 %) → silver on day 4
        #expect(earned[Badge(.weightProgress, .bronze)] == start.adding(days: 1))
        #expect(earned[Badge(.weightProgress, .silver)] == start.adding(days: 3))
    }

    @Test("maintaining within 2 % for 90 days earns the weight platinum")
    func hold() {
        let steady = active(90, meals: 0, weight: 70)
        let wobbly = active(45, meals: 0, weight: 70) + active(45, from: start.adding(days: 45), meals: 0, weight: 72)
        #expect(
            BadgeEvaluator.earned(records: steady, goal: .maintain, engine: nil, through: start.adding(days: 100))[Badge(.weightProgress, .platinum)]
                == start.adding(days: 89)
        )
        // 72 is 2.9 % above 70: the hold restarts
        #expect(
            BadgeEvaluator.earned(records: wobbly, goal: .maintain, engine: nil, through: start.adding(days: 100))[Badge(.weightProgress, .platinum)]
                == nil
        )
    }

    @Test("points: +10 a meal day, +5 all macros, +5 weight, +2 opening")
    func earning() {
        let day = DayRecord(date: start, mealCount: 3, weightKg: 70, allMacrosGood: true, opened: true)
        #expect(PointsLedger(records: [day], through: start).total == 22)
        let twoMeals = DayRecord(date: start, mealCount: 2, weightKg: nil, allMacrosGood: false, opened: false)
        #expect(PointsLedger(records: [twoMeals], through: start).total == 10)
    }

    @Test("decay: 5 % a day for the 7 days after a break, then 1 %; logging again stops it")
    func decay() {
        // 10 days × 10 = 100 points, then nothing
        let records = active(10)
        let ledger = PointsLedger(records: records, through: start.adding(days: 18))
        // 7 days at 5 %: 100 × 0.95^7 = 69.83; 2 more at 1 %: × 0.99² = 68.44
        #expect(abs((ledger.days.last?.balance ?? 0) - 100 * pow(0.95, 7) * pow(0.99, 2)) < 1e-9)
        #expect(ledger.total == 68)
        let resumed = PointsLedger(records: records + active(1, from: start.adding(days: 12)), through: start.adding(days: 12))
        // 2 days at 5 % (90.25), then +10 and no decay: 100.25
        #expect(abs((resumed.days.last?.balance ?? 0) - 100.25) < 1e-9)
    }

    @Test("a cycle completed within targets adds 100 on its last day")
    func cycleBonus() {
        let ledger = PointsLedger(records: active(3), cycleCompletions: [start.adding(days: 2)], through: start.adding(days: 2))
        #expect(ledger.total == 130)
    }

    @Test(
        "adherence tiers: 5, 10 and 25 cycles on target, not one cycle fewer",
        arguments: zip([1, 5, 10, 25], Badge.Tier.allCases)
    )
    func adherenceTiers(cycles: Int, tier: Badge.Tier) {
        // Given every day good from the start: habit week (7) + 28 days per cycle
        let engine = CycleEngine(startDate: start, preset: .openEnded)
        let records = active(7 + 28 * cycles, good: true)
        let last = start.adding(days: 7 + 28 * cycles - 1)
        // Then the tier lands on the last day of cycle n, and the day before only n − 1 are complete
        let atEnd = BadgeEvaluator.earned(records: records, goal: .lose, engine: engine, through: last)
        let dayBefore = BadgeEvaluator.earned(records: records, goal: .lose, engine: engine, through: last.adding(days: -1))
        #expect(atEnd[Badge(.adherence, tier)] == last)
        #expect(dayBefore[Badge(.adherence, tier)] == nil)
    }

    @Test(
        "weight tiers at exactly 2, 5 and 10 %, not at 0.1 point less",
        arguments: zip([2.0, 5.0, 10.0], [Badge.Tier.bronze, .silver, .gold])
    )
    func weightTiers(percent: Double, tier: Badge.Tier) {
        // Given 100 kg, then 7 daily entries of w: on day 7 the 7-entry average is exactly w
        func history(_ kg: Double) -> [DayRecord] {
            [DayRecord(date: start, mealCount: 0, weightKg: 100, allMacrosGood: false, opened: false)]
                + active(7, from: start.adding(days: 1), meals: 0, weight: kg)
        }
        let through = start.adding(days: 20)
        let reached = BadgeEvaluator.earned(records: history(100 - percent), goal: .lose, engine: nil, through: through)
        let short = BadgeEvaluator.earned(records: history(100 - percent + 0.1), goal: .lose, engine: nil, through: through)
        #expect(reached[Badge(.weightProgress, tier)] == start.adding(days: 7))
        #expect(short[Badge(.weightProgress, tier)] == nil)
    }

    @Test("holding the goal weight 89 days is not yet platinum")
    func holdOneDayShort() {
        let records = active(89, meals: 0, weight: 70)
        let earned = BadgeEvaluator.earned(records: records, goal: .maintain, engine: nil, through: start.adding(days: 100))
        #expect(earned[Badge(.weightProgress, .platinum)] == nil)
    }

    @Test("a weigh-in gap of more than 14 days restarts the hold")
    func holdGap() {
        // weigh-ins on days 0–9, none until day 30 (gap 21 days), then daily to day 130
        let records = active(10, meals: 0, weight: 70) + active(101, from: start.adding(days: 30), meals: 0, weight: 70)
        let earned = BadgeEvaluator.earned(records: records, goal: .maintain, engine: nil, through: start.adding(days: 200))
        // the hold restarts on day 30; its 90th day is day 30 + 89 = 119 (without the rule: day 89)
        #expect(earned[Badge(.weightProgress, .platinum)] == start.adding(days: 119))
    }

    @Test("after gold, 90 days within 2 % of the gold weight earn platinum")
    func holdAfterGold() {
        // 100 kg, then 90 kg: the average hits 90 (10 %) on day 7 → gold; target 90 kg, ±1.8 kg
        let records =
            [DayRecord(date: start, mealCount: 0, weightKg: 100, allMacrosGood: false, opened: false)]
            + active(96, from: start.adding(days: 1), meals: 0, weight: 90)
        let earned = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: 200))
        #expect(earned[Badge(.weightProgress, .gold)] == start.adding(days: 7))
        // hold starts on the gold day (day 7); its 90th day is day 7 + 89 = 96
        #expect(earned[Badge(.weightProgress, .platinum)] == start.adding(days: 96))
    }

    @Test("stored badges are never dropped by a merge; the earlier date wins")
    func mergeKeeps() {
        let stored = [Badge(.streak, .bronze): start, Badge(.milestone, .bronze): start.adding(days: 9)]
        let fresh = [Badge(.milestone, .bronze): start.adding(days: 5), Badge(.milestone, .silver): start.adding(days: 20)]
        let merged = BadgeEvaluator.merge(stored: stored, fresh: fresh)
        #expect(
            merged == [
                Badge(.streak, .bronze): start, Badge(.milestone, .bronze): start.adding(days: 5),
                Badge(.milestone, .silver): start.adding(days: 20),
            ]
        )
    }

    @Test("badges earned today are listed for the celebration; yesterday's are not")
    func earnedToday() {
        // 7 days × 10 meals: streak bronze on day 7 (offset 6), 50 meals on day 5 (offset 4)
        let records = active(7, meals: 10)
        func on(_ offset: Int) -> [Badge] {
            BadgeEvaluator.earned(on: start.adding(days: offset), records: records, goal: .lose, engine: nil)
        }
        #expect(on(6) == [Badge(.streak, .bronze)])
        #expect(on(4) == [Badge(.milestone, .bronze)])
        #expect(on(5).isEmpty)
    }

    @Test("a badge has a name, a description and a category line in English")
    func badgeTexts() {
        let badge = Badge(.streak, .bronze)
        let en = Localizer(.en)
        #expect(en.render(badge.nameMessage) == "Bronze: 7-day streak")
        #expect(en.render(badge.descriptionMessage) == "Log a meal or your weight 7 days in a row.")
        #expect(en.render(badge.categoryMessage) == "Streaks")
        #expect(en.render(badge.unlockedMessage) == "New badge: Bronze: 7-day streak")
    }

    @Test("points breakdown names each reason once per day, however many meals")
    func breakdown() {
        let day = DayRecord(date: start, mealCount: 4, weightKg: 70, allMacrosGood: true, opened: true)
        let ledger = PointsLedger(records: [day], through: start)
        #expect(ledger.days.first?.breakdown == [.mealLogged: 10, .macrosBonus: 5, .weightEntry: 5, .dailyLogin: 2])
        #expect(ledger.days.first?.earned == 22)
    }

    @Test("the macro bonus needs a meal: a weight-only day earns 5, not 10")
    func bonusNeedsMeal() {
        let day = DayRecord(date: start, mealCount: 0, weightKg: 70, allMacrosGood: true, opened: false)
        #expect(PointsLedger(records: [day], through: start).total == 5)
    }

    @Test("opening the app without logging earns 2 but the day still decays")
    func openOnly() {
        // 10 on day 1; day 2 opened only: (10 + 2) × 0.95 = 11.4 → shown 11
        let records = active(1) + [DayRecord(date: start.adding(days: 1), mealCount: 0, weightKg: nil, allMacrosGood: false, opened: true)]
        let ledger = PointsLedger(records: records, through: start.adding(days: 1))
        #expect(abs((ledger.days.last?.balance ?? 0) - 11.4) < 1e-9)
        #expect(ledger.total == 11)
    }

    @Test("beyond the 7-day penalty window inactivity decays 1 % a day")
    func slowDecay() {
        // 100, then 7 days at 5 %: 69.8337; days 8–10 at 1 % each: decay on day 8 is 0.698337
        let ledger = PointsLedger(records: active(10), through: start.adding(days: 19))
        let penaltyEnd = ledger.days[16].balance
        #expect(abs(penaltyEnd - 100 * pow(0.95, 7)) < 1e-9)
        #expect(abs(ledger.days[17].decayed - penaltyEnd * 0.01) < 1e-9)
        // 69.8337 × 0.99³ = 67.7596 → 67
        #expect(ledger.total == 67)
    }

    @Test("a new break after coming back starts a new 5 % window")
    func secondBreak() {
        // 100 → skip (95) → log (105) → skip: 105 × 0.95 = 99.75
        let records = active(10) + active(1, from: start.adding(days: 11))
        let ledger = PointsLedger(records: records, through: start.adding(days: 12))
        #expect(ledger.days.map(\.decayed).filter { $0 > 0 }.count == 2)
        #expect(abs((ledger.days.last?.balance ?? 0) - 99.75) < 1e-9)
    }

    @Test("the engine-based ledger adds the cycle bonus on the cycle's last day")
    func engineLedger() {
        // 35 good days × (10 + 5) = 525, plus 100 for the first cycle ending on day 35 = 625
        let engine = CycleEngine(startDate: start, preset: .openEnded)
        let ledger = PointsLedger(records: active(35, good: true), engine: engine, through: start.adding(days: 34))
        #expect(ledger.total == 625)
        #expect(ledger.days.last?.breakdown[.cycleCompleted] == 100)
        #expect(Localizer(.en).render(ledger.totalMessage) == "625 points")
    }

    @Test("no records, no points")
    func empty() {
        #expect(PointsLedger(records: [], through: start).total == 0)
        #expect(PointsLedger(records: [], through: start).days.isEmpty)
    }
}
