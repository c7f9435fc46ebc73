import DietCore
import TestSupport
import Testing

@Suite("Next badges and their progress")
struct BadgeProgressTests {
    let start = LocalDate.ymd(2026, 1, 5)

    func day(_ offset: Int, meals: Int = 1, weight: Double? = nil, opened: Bool = false) -> DayRecord {
        DayRecord(date: start.adding(days: offset), mealCount: meals, weightKg: weight, allMacrosGood: false, opened: opened)
    }

    @Test("the streak counts the current run, ending today or yesterday while today is open; an older run counts 0")
    func streak() {
        let records = (0..<5).map { day($0) }
        let next = { (date: LocalDate) in
            BadgeEvaluator.next(records: records, goal: .lose, engine: nil, earned: [], through: date).first { $0.badge.category == .streak }
        }
        #expect(next(start.adding(days: 4))?.current == 5)
        #expect(next(start.adding(days: 5))?.current == 5)
        #expect(next(start.adding(days: 6))?.current == 0)
        // a day with only the app opened keeps yesterday's run
        let opened = records + [day(5, meals: 0, opened: true)]
        let withOpen = BadgeEvaluator.next(records: opened, goal: .lose, engine: nil, earned: [], through: start.adding(days: 5))
        #expect(withOpen.first { $0.badge.category == .streak }?.current == 5)
    }

    @Test("the next tier follows the earned ones; a complete category is left out")
    func tiers() {
        let earned: Set<Badge> = [
            Badge(.milestone, .bronze), Badge(.streak, .bronze), Badge(.streak, .silver),
            Badge(.streak, .gold), Badge(.streak, .platinum),
        ]
        let next = BadgeEvaluator.next(records: [day(0, meals: 60)], goal: .lose, engine: nil, earned: earned, through: start)
        #expect(next.map(\.badge) == [Badge(.adherence, .bronze), Badge(.milestone, .silver), Badge(.weightProgress, .bronze)])
        #expect(next[1].current == 60 && next[1].threshold == 200)
        #expect(Localizer(.en).render(next[1].message) == "60 of 200 meals")
        #expect(next[1].fraction == 0.3)
    }

    @Test("maintaining offers the goal-weight hold as its weight badge, without a bar")
    func maintain() {
        let next = BadgeEvaluator.next(records: [day(0, weight: 80)], goal: .maintain, engine: nil, earned: [], through: start)
        let weight = next.first { $0.badge.category == .weightProgress }
        #expect(weight?.badge == Badge(.weightProgress, .platinum))
        #expect(weight?.current == nil && weight?.fraction == 0)
    }

    @Test("weight progress shows the best average so far, in percent with one digit")
    func weight() {
        // 80 kg, then 7 entries of 78: the 7-entry average reaches 78.0, 2.5 % down
        let records = [day(0, weight: 80)] + (1...7).map { day($0, weight: 78) }
        let next = BadgeEvaluator.next(
            records: records,
            goal: .lose,
            engine: nil,
            earned: [Badge(.weightProgress, .bronze)],
            through: start.adding(days: 7)
        )
        let weight = next.first { $0.badge.category == .weightProgress }
        #expect(weight?.badge == Badge(.weightProgress, .silver))
        #expect(Localizer(.en).render(weight?.message ?? Message("x")) == "2.5 of 5 %")
    }

    @Test("a cycle paused by recovery mode completes later, by the paused days, and the pause counts for nothing")
    func pausedCycle() throws {
        // Given every day on target from the start, and recovery mode on days 10–19
        let period = try #require(RecoveryPeriod(from: start.adding(days: 10), until: start.adding(days: 20)))
        let engine = CycleEngine(startDate: start, preset: .openEnded, pauses: CyclePauses(periods: [period], since: nil))
        let records = Dictionary(
            uniqueKeysWithValues: (0..<90).map { offset in
                (
                    start.adding(days: offset),
                    DayRecord(
                        date: start.adding(days: offset),
                        mealCount: 1,
                        weightKg: nil,
                        allMacrosGood: true,
                        opened: false
                    )
                )
            }
        )
        // Then the first cycle (programme days 8–35) ends 10 days later than without the pause
        #expect(
            AdherentCycles.completions(
                records,
                engine: CycleEngine(startDate: start, preset: .openEnded),
                through: start.adding(days: 89)
            ).first == start.adding(days: 34)
        )
        #expect(
            AdherentCycles.completions(records, engine: engine, through: start.adding(days: 89)) == [
                start.adding(days: 44),
                start.adding(days: 72),
            ]
        )
        // and days on target only during the pause do not complete a cycle
        let onlyPause = records.mapValues {
            DayRecord(
                date: $0.date,
                mealCount: 1,
                weightKg: nil,
                allMacrosGood: (10..<20).contains(start.days(to: $0.date)),
                opened: false
            )
        }
        #expect(AdherentCycles.completions(onlyPause, engine: engine, through: start.adding(days: 89)).isEmpty)
    }
}
