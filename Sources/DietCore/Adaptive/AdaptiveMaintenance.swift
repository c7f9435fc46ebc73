/// Re-estimating maintenance from what was eaten and how the trend weight moved (docs/rules.md §3a):
/// `maintenance ≈ mean(intake) − Δtrend_kg / days × 7700`.
public enum AdaptiveMaintenance {
    public static let kcalPerKg = 7700.0
    public static let minimumDays = 21
    public static let minimumLoggedShare = 0.7
    public static let minimumWeighIns = 6
    /// Days under this are treated as not (fully) logged and ignored.
    public static let minimumDayKcal = 200
    public static let maximumAdjustment = 500

    /// One day of the window: what was eaten (nil: nothing logged).
    public struct Day: Hashable, Sendable {
        public let date: LocalDate
        public let intakeKcal: Int?

        public init(date: LocalDate, intakeKcal: Int?) {
            self.date = date
            self.intakeKcal = intakeKcal
        }
    }

    public enum Confidence: String, Codable, Sendable, Comparable {
        case low, medium, high

        public static func < (lhs: Confidence, rhs: Confidence) -> Bool {
            [.low, .medium, .high].firstIndex(of: lhs) ?? 0 < [.low, .medium, .high].firstIndex(of: rhs) ?? 0
        }
    }

    /// Why the formula stands.
    public enum Shortfall: Hashable, Sendable {
        case tooFewDays(have: Int)
        case tooFewLoggedDays(logged: Int, of: Int)
        case tooFewWeighIns(have: Int)

        public var message: Message {
            switch self {
            case .tooFewDays(let have):
                Message("adaptive.short.days", ["have": .integer(have), "need": .integer(minimumDays)])
            case let .tooFewLoggedDays(logged, total):
                Message("adaptive.short.logged", ["logged": .integer(logged), "total": .integer(total)])
            case .tooFewWeighIns(let have):
                Message("adaptive.short.weighIns", ["have": .integer(have), "need": .integer(minimumWeighIns)])
            }
        }
    }

    public enum Result: Hashable, Sendable {
        /// The formula stands, and why.
        case formula(tdeeKcal: Int, because: Shortfall)
        case estimate(Estimate)
    }

    public struct Estimate: Hashable, Sendable {
        public let kcal: Int
        /// Before clamping to TDEE ± 500.
        public let rawKcal: Int
        public let clamped: Bool
        public let tdeeKcal: Int
        public let confidence: Confidence
        public let meanIntakeKcal: Double
        public let trendChangeKg: Double
        public let days: Int

        /// "Your data suggests 2,150 kcal (formula 1,986), medium confidence."
        public var message: Message {
            Message(
                "adaptive.estimate",
                [
                    "kcal": .integer(kcal), "tdee": .integer(tdeeKcal),
                    "confidence": .message(Message("adaptive.confidence.\(confidence.rawValue)")),
                ]
            )
        }
    }

    /// Estimates maintenance over `days` (the window, e.g. the last maintenance block or the
    /// last 28 days) from logged intake and the Hacker's Diet trend of `weights`.
    ///
    /// Confidence: high with ≥ 28 days, ≥ 85 % logged, ≥ 12 weigh-ins and no clamping;
    /// medium when the guard-rails are met with room (≥ 80 % logged or ≥ 10 weigh-ins) and no
    /// clamping; low otherwise, and always when the estimate had to be clamped.
    public static func estimate(days: [Day], weights: [WeightEntry], tdeeKcal: Int) -> Result {
        guard let first = days.map(\.date).min(), let last = days.map(\.date).max() else {
            return .formula(tdeeKcal: tdeeKcal, because: .tooFewDays(have: 0))
        }
        let span = first.days(to: last) + 1
        guard span >= minimumDays else { return .formula(tdeeKcal: tdeeKcal, because: .tooFewDays(have: span)) }
        let logged = days.compactMap { day in day.intakeKcal.flatMap { $0 >= minimumDayKcal ? $0 : nil } }
        guard Double(logged.count) >= minimumLoggedShare * Double(span) else {
            return .formula(tdeeKcal: tdeeKcal, because: .tooFewLoggedDays(logged: logged.count, of: span))
        }
        let inWindow = weights.filter { $0.date >= first && $0.date <= last }
        guard inWindow.count >= minimumWeighIns else {
            return .formula(tdeeKcal: tdeeKcal, because: .tooFewWeighIns(have: inWindow.count))
        }
        let trend = WeightTrend.smoothed(inWindow)
        let change = (trend.last?.trendKg ?? 0) - (trend.first?.trendKg ?? 0)
        let trendDays = max(1, (trend.first?.date).map { $0.days(to: trend.last?.date ?? $0) } ?? 1)
        let mean = Double(logged.reduce(0, +)) / Double(logged.count)
        let raw = Energy.wholeKcal(mean - change / Double(trendDays) * kcalPerKg)
        let kcal = min(max(raw, tdeeKcal - maximumAdjustment), tdeeKcal + maximumAdjustment)
        let share = Double(logged.count) / Double(span)
        let confidence: Confidence =
            kcal != raw
            ? .low
            : span >= 28 && share >= 0.85 && inWindow.count >= 12
                ? .high
                : share >= 0.8 || inWindow.count >= 10 ? .medium : .low
        return .estimate(
            Estimate(
                kcal: kcal,
                rawKcal: raw,
                clamped: kcal != raw,
                tdeeKcal: tdeeKcal,
                confidence: confidence,
                meanIntakeKcal: mean,
                trendChangeKg: change,
                days: span
            )
        )
    }
}
