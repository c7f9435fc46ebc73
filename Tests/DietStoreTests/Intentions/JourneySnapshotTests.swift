import DietCore
import Foundation
import TestSupport
import Testing

@testable import DietStore

/// The 120-day journey fixture of DietCoreTests, logged through the store's intentions day by
/// day with a fixed clock; each evening's today snapshot must match the expected outputs.
@Suite("Journey through the store")
struct JourneySnapshotTests {
    @Test("each evening's snapshot matches the independent expectation, with recovery on every open")
    func replay() throws {
        let input = try JourneyFixture.input()
        let expected = try JourneyFixture.expected()
        let zone = try #require(TimeZone(identifier: input.timeZone))
        let clock = FixedClock.at(input.startDate, 7, in: zone)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(input.profile, timeZone: zone)
        for (day, want) in zip(input.days, expected.days) {
            for meal in day.meals {
                clock.set(day.date.instant(at: meal.time, in: zone))
                try store.checkCycle(timeZone: zone)
                try store.logMeal(
                    try MealEntry(
                        name: meal.name,
                        kcal: meal.kcal,
                        proteinG: meal.proteinG,
                        carbsG: meal.carbsG,
                        fatG: meal.fatG,
                        at: clock.now(),
                        in: zone
                    )
                )
            }
            if let kg = day.weightKg {
                try store.logWeight(try WeightEntry(date: day.date, kg: kg), timeZone: zone)
            }
            clock.set(day.date.instant(at: input.evaluateAt, in: zone))
            try store.checkCycle(timeZone: zone)
            let report = try #require(try store.today(timeZone: zone)).report
            let label = day.date.iso
            #expect(report.cycle?.phase == want.phase, "\(label)")
            #expect(try store.cycleState()?.phase == want.phase, "\(label)")
            #expect(report.targets.kcal == want.targetKcal && report.targets.proteinG == want.proteinGoalG, "\(label)")
            #expect(report.totals.kcal == want.eatenKcal, "\(label)")
            #expect(report.smileys == [want.smileys["protein"], want.smileys["carbs"], want.smileys["fat"]], "\(label)")
            #expect(report.streak.count == want.streak && report.streak.isLit == want.streakLit, "\(label)")
            if let average = want.rollingAverageKg {
                #expect(report.weight.averageKg.map { abs($0 - average) <= 0.005 + 1e-9 } == true, "\(label)")
            } else {
                #expect(report.weight.averageKg == nil, "\(label)")
            }
        }
        // the app was opened every day: no day was ever missed, so no recovery was needed
        #expect(try store.eventNames().contains("cycle_recovered") == false)
        // switches on programme days 8, 22, 36, 50, 64, 78, 92, 106 and 120
        #expect(try store.eventNames().filter { $0 == "phase_switched" }.count == 9)
    }
}
