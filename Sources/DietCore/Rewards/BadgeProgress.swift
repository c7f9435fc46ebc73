/// How far a history is towards the next badge of one category: "12 of 30 days".
public struct BadgeProgress: Hashable, Sendable {
    /// The next badge of the category (the lowest tier not yet earned).
    public let badge: Badge
    /// Where the history stands now, in the threshold's unit; nil when the badge is not
    /// measured by a number that grows (holding the goal weight before gold is earned).
    public let current: Double?
    /// The badge's threshold (days, cycles, meals, percent; platinum weight: days held).
    public let threshold: Double

    public init(badge: Badge, current: Double?, threshold: Double) {
        self.badge = badge
        self.current = current
        self.threshold = threshold
    }

    /// The share reached, 0…1 (0 without a current value).
    public var fraction: Double {
        guard let current, threshold > 0 else { return 0 }
        return min(1, max(0, current / threshold))
    }

    /// "12 of 30 days", "49 of 50 meals", "1 of 5 cycles", "1.2 of 2 %", "0 of 90 days".
    public var message: Message {
        let unit = badge.category == .weightProgress && badge.tier != .platinum ? "percent" : badge.category.progressUnit
        let shown: Message.Argument = unit == "percent" ? .decimal(current ?? 0, digits: 1) : .integer(Int((current ?? 0).rounded(.down)))
        return Message("badges.progress.\(unit)", ["current": shown, "count": .integer(Int(threshold))])
    }
}

extension Badge.Category {
    /// The unit of the category's thresholds, as a string key part.
    var progressUnit: String {
        switch self {
        case .streak, .weightProgress: "days"
        case .adherence: "cycles"
        case .milestone: "meals"
        }
    }
}

extension BadgeEvaluator {
    /// The next badge of each category with the history's progress towards it; categories
    /// whose four tiers are all earned are left out (for "maintain", weight progress offers
    /// only holding the weight, platinum). `earned` is every badge known (stored and
    /// fresh), so a badge never shows as "next" once it was earned.
    public static func next(
        records: [DayRecord],
        goal: Goal,
        engine: CycleEngine?,
        earned: Set<Badge>,
        through date: LocalDate
    ) -> [BadgeProgress] {
        let days = records.filter { $0.date <= date }.sorted { $0.date < $1.date }
        return Badge.Category.allCases.compactMap { category in
            // maintaining moves no weight: its only weight badge is holding it (platinum)
            let tiers = category == .weightProgress && goal == .maintain ? [.platinum] : Badge.Tier.allCases
            guard let tier = tiers.first(where: { !earned.contains(Badge(category, $0)) }) else { return nil }
            let badge = Badge(category, tier)
            if category == .weightProgress && tier == .platinum {
                return BadgeProgress(badge: badge, current: nil, threshold: Double(Badge.holdDays))
            }
            guard let threshold = Badge.thresholds[category]?[Badge.Tier.allCases.firstIndex(of: tier) ?? 0] else { return nil }
            return BadgeProgress(
                badge: badge,
                current: current(category, days, goal: goal, engine: engine, through: date),
                threshold: threshold
            )
        }
    }

    /// Where a history stands in a category: the current streak (ending today, or yesterday
    /// while today is open), the meals logged, the cycles completed on target, the best
    /// weight progress in percent (never below 0).
    static func current(
        _ category: Badge.Category,
        _ days: [DayRecord],
        goal: Goal,
        engine: CycleEngine?,
        through date: LocalDate
    ) -> Double {
        switch category {
        case .streak:
            guard let last = streakRuns(days).last(where: { $0.1 > 0 }) else { return 0 }
            return last.0 >= date.adding(days: -1) ? last.1 : 0
        case .milestone:
            return Double(days.reduce(0) { $0 + $1.mealCount })
        case .adherence:
            guard let engine else { return 0 }
            let byDate = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
            return Double(AdherentCycles.completions(byDate, engine: engine, through: date).count)
        case .weightProgress:
            return max(0, weightProgress(days, goal: goal).map(\.1).max() ?? 0)
        }
    }
}
