import DietCore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

@Suite("Today snapshot")
struct TodaySnapshotTests {
    @Test("before onboarding there is no dashboard")
    func none() throws {
        let (store, _) = try makeStore(onboard: nil)
        #expect(try store.today(timeZone: Zones.berlin) == nil)
    }

    @Test("the snapshot holds today's meals, targets, smileys, streak and weight card")
    func contents() throws {
        let (store, clock) = try makeStore()
        for day in 0..<9 {
            clock.set(FixedClock.at(LocalDate.ymd(2026, 1, 5).adding(days: day), 12, in: Zones.berlin).now())
            try store.logMeal(try meal(kcal: 500, protein: 110, carbs: 20, fat: 10, at: clock))
            try store.logWeight(
                try WeightEntry(date: LocalDate(clock.now(), in: Zones.berlin), kg: 72.0 - Double(day) / 10),
                timeZone: Zones.berlin
            )
        }
        try store.checkCycle(timeZone: Zones.berlin)
        let snapshot = try #require(try store.today(timeZone: Zones.berlin))
        let report = snapshot.report
        // 2026-01-13 is programme day 9: diet day 2; latest weight 71.2 kg, above the BMI-25
        // reference of 70.6 kg at 168 cm: protein 2 × 70.6, fat 0.6 × 70.6 (more than 25 % of 1,378 kcal)
        #expect(report.cycle?.phase == .diet && report.cycle?.dayInPhase == 2)
        #expect(report.targets.proteinG == 141.2 && report.targets.fatG == 42.4)
        #expect(snapshot.meals.count == 1 && report.totals.kcal == 500)
        // at 12:00 the first of three moments has begun: a third of each goal is due (rules §5):
        // protein 110 of 141.2 g good; carbs 20 of a third of ≥ 100 g on track; fat 10 of 14.1 good
        #expect(report.smileys == [.good, .onTrack, .good])
        #expect(report.macros.map(\.goalG) == [141.2, report.targets.carbsG, 42.4])
        #expect(report.streak.count == 9 && report.streak.isLit)
        // last 7 weights 71.8 … 71.2 → 71.5
        #expect(report.weight.averageKg.map { abs($0 - 71.5) < 1e-9 } == true)
        #expect(report.weight.downBy.map { abs($0 - 0.3) < 1e-9 } == true)
        #expect(report.phaseSwitch?.to == .diet)
    }

    @Test("a streak longer than the first window is still counted in full")
    func longStreak() throws {
        let (store, clock) = try makeStore()
        for day in 0..<150 {
            try store.logWeight(try WeightEntry(date: LocalDate.ymd(2026, 1, 5).adding(days: day), kg: 72), timeZone: Zones.berlin)
        }
        clock.set(FixedClock.at(LocalDate.ymd(2026, 1, 5).adding(days: 149), 20, in: Zones.berlin).now())
        #expect(try store.today(timeZone: Zones.berlin)?.report.streak.count == 150)
    }

    @Test("the observation delivers a new snapshot after a write")
    func observation() async throws {
        let (store, clock) = try makeStore()
        var iterator = store.observeToday(timeZone: Zones.berlin).removeDuplicates().values(in: store.reader).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first??.meals.isEmpty == true)
        try store.logMeal(try meal(at: clock))
        let second = try await iterator.next()
        #expect(second??.meals.count == 1)
    }
}
