import DietCore
import Foundation
import TestSupport
import Testing

/// The goal weight and its expected date (docs/rules.md §2; issue 30: "no goal weight and no date").
@Suite("Goal forecast")
struct GoalForecastTests {
    let start = LocalDate.ymd(2026, 2, 1)

    func daily(_ values: [Double]) throws -> [WeightEntry] {
        try values.enumerated().map { try WeightEntry(date: start.adding(days: $0.offset), kg: $0.element) }
    }

    @Test("before 14 days of weights the plan gives the date: 770 kcal a day below is 0.1 kg a day")
    func plan() throws {
        let forecast = try #require(
            GoalForecast(goal: .lose, goalKg: 70.0, weights: try daily([72.5]), fallbackKg: 72.5, today: start, balance: { _ in -770 })
        )
        #expect(forecast.basis == .plan)
        // 2.5 kg at 0.1 kg a day: 25 days
        #expect(forecast.outlook == .expected(start.adding(days: 25)))
        #expect(abs(forecast.paceKgPerWeek - -0.7) < 1e-9)
        #expect(abs(forecast.remainingKg - 2.5) < 1e-9)
    }

    @Test("the plan's days count one by one: a habit week at maintenance comes first")
    func planWithHabitWeek() throws {
        let habitEnds = start.adding(days: 7)
        let forecast = try #require(
            GoalForecast(goal: .lose, goalKg: 72.0, weights: [], fallbackKg: 72.5, today: start, balance: { $0 <= habitEnds ? 0 : -770 })
        )
        // 0.5 kg = 3,850 kcal: five days of 770 after day 7
        #expect(forecast.currentKg == 72.5)
        #expect(forecast.outlook == .expected(habitEnds.adding(days: 5)))
    }

    @Test("from 14 days of weights the trend's pace gives the date (hand-computed for a steady loss)")
    func trend() throws {
        // W_t = 80 − 0.1·t for t = 0…19: the trend is T_t = W_t + 0.9·(1 − 0.9^t), so over the 19 days
        // it fell 1.9 − 0.9·(1 − 0.9^19) = 1.121577 kg, 0.0590304 kg a day; T_19 = 78.878423;
        // 3.878423 kg to 75.0 take 65.7 → 66 days after the last weigh-in
        let weights = try daily((0..<20).map { 80 - 0.1 * Double($0) })
        let today = start.adding(days: 19)
        let forecast = try #require(GoalForecast(goal: .lose, goalKg: 75.0, weights: weights, fallbackKg: 80, today: today, balance: { _ in -9999 }))
        #expect(forecast.basis == .trend)
        #expect(abs(forecast.currentKg - 78.878423) < 1e-5)
        #expect(abs(forecast.paceKgPerWeek - -0.0590304 * 7) < 1e-5)
        #expect(forecast.outlook == .expected(today.adding(days: 66)))
    }

    @Test("a trend pointing away from the goal gives no date, whatever the plan says")
    func away() throws {
        let weights = try daily((0..<20).map { 80 + 0.1 * Double($0) })
        let forecast = try #require(
            GoalForecast(goal: .lose, goalKg: 75.0, weights: weights, fallbackKg: 80, today: start.adding(days: 19), balance: { _ in -770 })
        )
        #expect(forecast.basis == .trend && forecast.outlook == .away && forecast.expectedDate == nil)
        #expect(forecast.paceKgPerWeek > 0)
    }

    @Test("a plan without a deficit (goals locked at maintenance) gives no date")
    func planAway() throws {
        let forecast = try #require(GoalForecast(goal: .lose, goalKg: 70, weights: [], fallbackKg: 72.5, today: start, balance: { _ in 0 }))
        #expect(forecast.outlook == .away)
    }

    @Test("slower than five years gives no date")
    func beyond() throws {
        let forecast = try #require(GoalForecast(goal: .lose, goalKg: 50, weights: [], fallbackKg: 72.5, today: start, balance: { _ in -10 }))
        #expect(forecast.outlook == .beyondHorizon)
    }

    @Test("the trend at or past the goal is reached; gaining counts upwards")
    func reached() throws {
        let down = try #require(
            GoalForecast(goal: .lose, goalKg: 72.0, weights: try daily([71.5]), fallbackKg: 72.5, today: start, balance: { _ in -500 })
        )
        #expect(down.isReached && down.remainingKg == 0)
        let gain = try #require(
            GoalForecast(goal: .gain, goalKg: 62.0, weights: try daily([60.0]), fallbackKg: 60, today: start, balance: { _ in 500 })
        )
        // 2 kg = 15,400 kcal at 500 a day: 30.8 → 31 days
        #expect(gain.outlook == .expected(start.adding(days: 31)))
        #expect(GoalForecast(goal: .maintain, goalKg: 60, weights: [], fallbackKg: 60, today: start, balance: { _ in 0 }) == nil)
        #expect(GoalForecast(goal: .lose, goalKg: nil, weights: [], fallbackKg: 60, today: start, balance: { _ in 0 }) == nil)
    }

    @Test("the plan's balance follows the MATADOR calendar: maintenance in the habit week, the deficit on diet days")
    func planBalance() throws {
        let plan = EnergyPlan(profile: .alice, on: start)
        let balance = GoalForecast.planBalance(plan: plan, engine: CycleEngine(startDate: start, preset: .openEnded))
        #expect(balance(start) == 0)
        #expect(balance(start.adding(days: 7)) == Double(plan.targets(.deficit).kcal - plan.maintenanceKcal))
        #expect(balance(start.adding(days: 7)) < -400)
        #expect(balance(start.adding(days: 21)) == 0)
    }

    @Test("a goal weight is refused on the wrong side of the weight, naming both, in German")
    func check() throws {
        #expect(throws: Never.self) { try Profile.check(goalWeightKg: 70, goal: .lose, currentKg: 82.4) }
        let error = try #require(throws: ValidationError.self) { try Profile.check(goalWeightKg: 85, goal: .lose, currentKg: 82.4) }
        #expect(
            Localizer(.de).render(error.message)
                == "Zielgewicht: erlaubt ist ein Gewicht unter deinem jetzigen von 82,4 kg, denn dein Ziel ist Abnehmen; du hast 85 eingegeben."
        )
        #expect(throws: ValidationError.self) { try Profile.check(goalWeightKg: 80, goal: .gain, currentKg: 82.4) }
        #expect(throws: ValidationError.self) { try Profile.check(goalWeightKg: 250, goal: .gain, currentKg: 82.4) }
        #expect(throws: ValidationError.self) { try Profile.check(goalWeightKg: 70, goal: .maintain, currentKg: 82.4) }
    }

    @Test("the outlook says the date and its basis in the user's language")
    func words() throws {
        let forecast = try #require(
            GoalForecast(goal: .lose, goalKg: 70.0, weights: try daily([72.5]), fallbackKg: 72.5, today: start, balance: { _ in -770 })
        )
        let l = Localizer(.de)
        #expect(l.render(forecast.headline) == "Ziel 70,0 kg · noch 2,5 kg")
        #expect(l.render(forecast.outlookMessage).hasPrefix("Voraussichtlich am "))
        #expect(l.render(forecast.outlookMessage).contains("nach deinem Plan (0,70 kg weniger pro Woche im Schnitt)"))
    }
}
