import DietCore
@testable import DietStore
import Foundation
import TestSupport
import Testing

/// The 120-day journey fixture of DietCoreTests, logged through the store's intentions day by
/// day with a fixed clock; each evening's today snapshot must match the expected outputs.
@Suite("Journey through the store")
struct JourneySnapshotTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DietCoreTests/Fixtures")

    struct Input: Decodable {
        let profile: Profile
        let startDate: LocalDate
        let days: [Day]

        struct Day: Decodable {
            let date: LocalDate
            let meals: [Meal]
            let weightKg: Double?

            enum CodingKeys: String, CodingKey {
                case date, meals
                case weightKg = "weight_kg"
            }
        }

        struct Meal: Decodable {
            let name: String
            let time: TimeOfDay
            let kcal: Int
            let proteinG: Double?
            let carbsG: Double?
            let fatG: Double?

            enum CodingKeys: String, CodingKey {
                case name, time, kcal
                case proteinG = "protein_g"
                case carbsG = "carbs_g"
                case fatG = "fat_g"
            }
        }

        enum CodingKeys: String, CodingKey {
            case profile, days
            case startDate = "start_date"
        }
    }

    struct Expected: Decodable {
        let days: [Day]

        struct Day: Decodable {
            let phase: Phase
            let targetKcal: Int
            let proteinGoalG: Double
            let eatenKcal: Int
            let smileys: [String: Smiley]
            let streak: Int
            let streakLit: Bool
            let rollingAverageKg: Double?

            enum CodingKeys: String, CodingKey {
                case phase, smileys, streak
                case targetKcal = "target_kcal"
                case proteinGoalG = "protein_goal_g"
                case eatenKcal = "eaten_kcal"
                case streakLit = "streak_lit"
                case rollingAverageKg = "rolling_average_kg"
            }
        }
    }

    @Test("each evening's snapshot matches the independent expectation, with recovery on every open")
    func replay() throws {
        let input = try JSONDecoder().decode(Input.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("journey-120_input.json")))
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("journey-120_expected.json")))
        let zone = Zones.berlin
        let clock = FixedClock.at(input.startDate, 7, in: zone)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(input.profile, timeZone: zone)
        for (day, want) in zip(input.days, expected.days) {
            for meal in day.meals {
                clock.set(day.date.instant(at: meal.time, in: zone))
                try store.checkCycle(timeZone: zone)
                try store.logMeal(try MealEntry(name: meal.name, kcal: meal.kcal, proteinG: meal.proteinG, carbsG: meal.carbsG,
                                                fatG: meal.fatG, at: clock.now(), in: zone))
            }
            if let kg = day.weightKg {
                try store.logWeight(try WeightEntry(date: day.date, kg: kg), timeZone: zone)
            }
            clock.set(day.date.instant(at: .hm(23, 30), in: zone))
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
