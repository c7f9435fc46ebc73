import DietCore
import TestSupport
import Testing

@Suite("Adaptive maintenance")
struct AdaptiveMaintenanceTests {
    let start = LocalDate.ymd(2026, 2, 2)

    func days(_ count: Int, kcal: (Int) -> Int?) -> [AdaptiveMaintenance.Day] {
        (0..<count).map { AdaptiveMaintenance.Day(date: start.adding(days: $0), intakeKcal: kcal($0)) }
    }

    @Test("a stable weight on 2,200 kcal estimates 2,200")
    func stable() throws {
        let result = AdaptiveMaintenance.estimate(
            days: days(28) { _ in 2200 },
            weights: try (0..<28).map { try WeightEntry(date: start.adding(days: $0), kg: 75) },
            tdeeKcal: 2000
        )
        guard case .estimate(let estimate) = result else {
            Issue.record("expected an estimate")
            return
        }
        #expect(estimate.kcal == 2200 && !estimate.clamped && estimate.confidence == .high)
    }

    @Test("losing on the trend means maintenance is above intake")
    func losing() throws {
        // A steady loss of 0.1 kg a day for 28 days on 1,800 kcal. The smoothed trend lags the scale, so its
        // slope over the window is below 0.1 kg/day: 27 days of a lagging EMA of a ramp.
        let weights = try (0..<28).map { try WeightEntry(date: start.adding(days: $0), kg: 80.0 - 0.1 * Double($0)) }
        let trend = WeightTrend.smoothed(weights)
        let slope = ((trend.last?.trendKg ?? 0) - (trend.first?.trendKg ?? 0)) / 27
        let expected = Energy.wholeKcal(1800 - slope * 7700)
        let result = AdaptiveMaintenance.estimate(days: days(28) { _ in 1800 }, weights: weights, tdeeKcal: 2300)
        guard case .estimate(let estimate) = result else {
            Issue.record("expected an estimate")
            return
        }
        #expect(estimate.kcal == expected)
        #expect(estimate.kcal > 1800 && estimate.kcal <= 2570)
    }

    @Test("days under 200 kcal are ignored in the mean")
    func smallDaysIgnored() throws {
        let weights = try (0..<28).map { try WeightEntry(date: start.adding(days: $0), kg: 75) }
        let result = AdaptiveMaintenance.estimate(days: days(28) { $0 < 4 ? 150 : 2100 }, weights: weights, tdeeKcal: 2000)
        guard case .estimate(let estimate) = result else {
            Issue.record("expected an estimate")
            return
        }
        #expect(estimate.kcal == 2100)
    }

    @Test("each guard-rail failing keeps the formula and says which")
    func guardRails() throws {
        let weights = try (0..<28).map { try WeightEntry(date: start.adding(days: $0), kg: 75) }
        #expect(
            AdaptiveMaintenance.estimate(days: days(20) { _ in 2000 }, weights: weights, tdeeKcal: 2000)
                == .formula(tdeeKcal: 2000, because: .tooFewDays(have: 20))
        )
        // 19 of 28 logged = 68 %
        #expect(
            AdaptiveMaintenance.estimate(days: days(28) { $0 < 19 ? 2000 : nil }, weights: weights, tdeeKcal: 2000)
                == .formula(tdeeKcal: 2000, because: .tooFewLoggedDays(logged: 19, of: 28))
        )
        #expect(
            AdaptiveMaintenance.estimate(days: days(28) { _ in 2000 }, weights: Array(weights.prefix(5)), tdeeKcal: 2000)
                == .formula(tdeeKcal: 2000, because: .tooFewWeighIns(have: 5))
        )
        #expect(
            Localizer(.en).render(AdaptiveMaintenance.Shortfall.tooFewWeighIns(have: 5).message)
                == "Your formula TDEE stands: 5 of 6 weigh-ins so far."
        )
    }

    @Test("the estimate is clamped to TDEE ± 500 both ways, with low confidence")
    func clamped() throws {
        let weights = try (0..<28).map { try WeightEntry(date: start.adding(days: $0), kg: 75) }
        guard case .estimate(let high) = AdaptiveMaintenance.estimate(days: days(28) { _ in 3200 }, weights: weights, tdeeKcal: 2000),
            case .estimate(let low) = AdaptiveMaintenance.estimate(days: days(28) { _ in 1000 }, weights: weights, tdeeKcal: 2000)
        else {
            Issue.record("expected estimates")
            return
        }
        #expect(high.kcal == 2500 && high.rawKcal == 3200 && high.clamped && high.confidence == .low)
        #expect(low.kcal == 1500 && low.rawKcal == 1000 && low.clamped)
    }
}
