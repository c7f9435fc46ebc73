import DietCore
import TestSupport
import Testing

@Suite("Badges and points")
struct RewardsTests {
    let start = LocalDate.ymd(2026, 1, 5)

    /// `count` consecutive active days from `from`, each with `meals` meals.
    func active(_ count: Int, from: LocalDate? = nil, meals: Int = 1, good: Bool = false, weight: Double? = nil,
                opened: Bool = false) -> [DayRecord] {
        (0..<count).map { DayRecord(date: (from ?? start).adding(days: $0), mealCount: meals, weightKg: weight,
                                    allMacrosGood: good, opened: opened) }
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
        let records = [DayRecord(date: start, mealCount: 0, weightKg: 100, allMacrosGood: false, opened: false)]
            + active(6, from: start.adding(days: 1), meals: 0, weight: 97)
            + active(10, from: start.adding(days: 7), meals: 0, weight: 101)
        let earned = BadgeEvaluator.earned(records: records, goal: .lose, engine: nil, through: start.adding(days: 30))
        #expect(earned[Badge(.weightProgress, .bronze)] == start.adding(days: 2))
        #expect(earned[Badge(.weightProgress, .silver)] == nil)
    }

    @Test("gaining counts upwards for the goal gain")
    func gain() {
        let records = [DayRecord(date: start, mealCount: 0, weightKg: 60, allMacrosGood: false, opened: false)]
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
        #expect(BadgeEvaluator.earned(records: steady, goal: .maintain, engine: nil, through: start.adding(days: 100))[Badge(.weightProgress, .platinum)]
            == start.adding(days: 89))
        // 72 is 2.9 % above 70: the hold restarts
        #expect(BadgeEvaluator.earned(records: wobbly, goal: .maintain, engine: nil, through: start.adding(days: 100))[Badge(.weightProgress, .platinum)] == nil)
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
}

import Foundation
