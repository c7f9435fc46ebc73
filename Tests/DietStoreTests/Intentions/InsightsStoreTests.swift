import DietCore
import Foundation
import TestSupport
import Testing

@testable import DietStore

@Suite("insights from the store")
struct InsightsStoreTests {
    /// Thursday, programme day 39 of Alice (started 2026-01-05).
    let today = LocalDate.ymd(2026, 2, 12)

    @discardableResult
    func log(_ store: AppDatabase, _ date: LocalDate, kcal: Int, name: String = "Linsensuppe") throws -> Meal {
        try store.logMeal(
            MealEntry(
                name: name,
                kcal: kcal,
                proteinG: nil,
                carbsG: nil,
                fatG: nil,
                at: date.instant(at: .hm(12), in: Zones.berlin),
                in: Zones.berlin
            )
        )
    }

    func weigh(_ store: AppDatabase, _ date: LocalDate, _ kg: Double) throws {
        _ = try store.logWeight(WeightEntry(date: date, kg: kg), timeZone: Zones.berlin)
    }

    @Test("the summary sums each day's meals, leaves deleted ones out and reaches back for weights and activity")
    func readsTheWindow() throws {
        // Given Alice with a weigh-in before everything the summary reads, ten active January days, two meals on
        // Monday, a deleted and a kept meal on Tuesday, and weigh-ins in the window
        // (her onboarding weigh-in deleted, so December's is the one the window reaches back for)
        let (store, _) = try makeStore(on: .ymd(2026, 1, 5))
        try store.deleteWeight(on: .ymd(2026, 1, 5))
        try weigh(store, .ymd(2025, 12, 20), 71.0)
        for offset in 0..<10 { try log(store, LocalDate.ymd(2026, 1, 6).adding(days: offset), kcal: 1800) }
        try log(store, .ymd(2026, 2, 9), kcal: 700)
        try log(store, .ymd(2026, 2, 9), kcal: 800)
        let dropped = try log(store, .ymd(2026, 2, 10), kcal: 1400)
        try store.deleteMeal(dropped.id, timeZone: Zones.berlin)
        try log(store, .ymd(2026, 2, 10), kcal: 1300)
        try weigh(store, .ymd(2026, 2, 11), 70.2)
        try log(store, today, kcal: 2100)
        // When
        let summary = try store.insights(weeks: 2, through: today)
        // Then the days are read as they were logged
        let day = { (date: LocalDate) in summary.days.first { $0.date == date } }
        #expect(day(.ymd(2026, 2, 9))?.intakeKcal == 1500)
        #expect(day(.ymd(2026, 2, 10))?.intakeKcal == 1300)
        #expect(day(.ymd(2026, 2, 11))?.intakeKcal == nil && day(.ymd(2026, 2, 11))?.active == true)
        // the December weigh-in sets the targets until the next one (Monday is day 36, a diet day)
        let december = EnergyPlan(profile: .alice, latestWeightKg: 71.0, on: .ymd(2026, 2, 9)).targets(.deficit).kcal
        #expect(december != EnergyPlan(profile: .alice, on: .ymd(2026, 2, 9)).targets(.deficit).kcal)
        #expect(day(.ymd(2026, 2, 9))?.targetKcal == december)
        #expect(summary.streak.longest == 10)
        #expect(summary.streak.current == 4 && summary.streak.runs.map(\.days) == [4])
        #expect(summary.total.loggedDays == 3 && summary.total.unloggedDays == 8)
        #expect(summary.weight.latestKg == 70.2 && summary.weight.rollingAverageKg == (71.0 + 70.2) / 2)
    }

    @Test("the store's summary is the domain's over the same days: nothing is lost between the read and the maths")
    func sameAsDomain() throws {
        // Given three weeks of varied days
        let (store, _) = try makeStore(on: .ymd(2026, 1, 5))
        var intake: [LocalDate: Int] = [:]
        var weights: [WeightEntry] = []
        for offset in 0..<39 where offset % 5 != 3 {
            let date = LocalDate.ymd(2026, 1, 5).adding(days: offset)
            intake[date] = 1400 + 37 * (offset % 11)
            try log(store, date, kcal: intake[date] ?? 0)
            if offset % 3 == 0 {
                weights.append(try WeightEntry(date: date, kg: Double(725 - offset / 3) / 10))
                try weigh(store, date, weights[weights.count - 1].kg)
            }
        }
        // When
        let stored = try store.insights(weeks: 3, through: today)
        let settings = try #require(try store.settings())
        let direct = WeeklyInsights(
            .init(
                profile: settings.profile,
                startDate: settings.startDate,
                today: today,
                weeks: 3,
                intake: intake,
                weights: weights,
                activeDays: Set(intake.keys).union(weights.map(\.date))
            )
        )
        // Then
        #expect(stored == direct)
    }

    @Test("the maintenance estimate alone is the weekly summary's, for settings to offer")
    func maintenanceEstimate() throws {
        // Given 28 days of 1,900 kcal and a weigh-in every other day, sinking slowly
        let (store, _) = try makeStore(on: .ymd(2026, 1, 5))
        for offset in 0..<39 {
            let date = LocalDate.ymd(2026, 1, 5).adding(days: offset)
            try log(store, date, kcal: 1900)
            if offset % 2 == 0 { try weigh(store, date, Double(725 - offset / 2) / 10) }
        }
        // When
        let alone = try store.maintenanceEstimate(through: today)
        // Then
        #expect(alone == (try store.insights(weeks: 1, through: today)).maintenance)
        let estimate = try #require(alone.estimate)
        #expect(estimate.days == 28 && estimate.confidence == .high && alone.formulaKcal == estimate.tdeeKcal)
    }

    @Test("every query of the summary searches an index; none scans a whole table")
    func indexedQueries() throws {
        let (store, _) = try makeStore(on: .ymd(2026, 1, 5))
        let plans = try store.insightsQueryPlans(weeks: 52, through: today)
        #expect(plans.count == 4)
        for (query, plan) in plans {
            #expect(!plan.isEmpty, "\(query)")
            #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(query): \(plan)")
        }
    }

    @Test("before onboarding the summary says to onboard first")
    func notOnboarded() throws {
        let (store, _) = try makeStore(on: .ymd(2026, 1, 5), onboard: nil)
        #expect(throws: StoreError.notOnboarded) { try store.insights(weeks: 4, through: today) }
    }
}
