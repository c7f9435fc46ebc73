/// Badges (docs/rules.md §5): four categories in four tiers, never lost.
public struct Badge: Hashable, Sendable, Codable, Comparable {
    public enum Category: String, CaseIterable, Codable, Sendable {
        case streak, adherence, milestone
        case weightProgress = "weight_progress"
    }

    public enum Tier: String, CaseIterable, Codable, Sendable, Comparable {
        case bronze, silver, gold, platinum

        public static func < (lhs: Tier, rhs: Tier) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    public let category: Category
    public let tier: Tier

    public init(_ category: Category, _ tier: Tier) {
        self.category = category
        self.tier = tier
    }

    public static func < (lhs: Badge, rhs: Badge) -> Bool {
        (Category.allCases.firstIndex(of: lhs.category) ?? 0, lhs.tier) < (Category.allCases.firstIndex(of: rhs.category) ?? 0, rhs.tier)
    }

    /// Thresholds (docs/rules.md §5): streak days, cycles within targets, meals logged, percent of
    /// body weight changed in the goal's direction (platinum: 90 days holding the goal weight).
    public static let thresholds: [Category: [Double]] = [
        .streak: [7, 30, 90, 365],
        .adherence: [1, 5, 10, 25],
        .milestone: [50, 200, 500, 1000],
        .weightProgress: [2, 5, 10],
    ]
    /// Days of holding the goal weight for the weight platinum badge.
    public static let holdDays = 90
    /// How close to the goal weight counts as holding it.
    public static let holdTolerance = 0.02
    /// Holding needs evidence: a gap of more than 14 days between weigh-ins restarts the hold at
    /// the next weigh-in.
    public static let holdMaxGapDays = 14

    /// "Bronze: 7-day streak".
    public var nameMessage: Message { Message("badge.\(category.rawValue).\(tier.rawValue)") }

    /// How to earn it: "Log a meal or your weight 7 days in a row."
    public var descriptionMessage: Message { Message("badge.\(category.rawValue).\(tier.rawValue).description") }

    /// The category's title: "Streaks", "Adherence", "Milestones", "Weight progress".
    public var categoryMessage: Message { Message("badge.category.\(category.rawValue)") }

    /// The unlock line: "New badge: Bronze: 7-day streak".
    public var unlockedMessage: Message { Message("badge.unlocked", ["badge": .message(nameMessage)]) }
}

/// Which badges a history has earned, and on which day.
public enum BadgeEvaluator {
    /// Every badge earned up to `date`, with the first day it was earned.
    ///
    /// Weight progress uses the 7-entry rolling average (a single low reading earns nothing)
    /// relative to the first weight, in the goal's direction; the best value ever reached
    /// counts, so badges stay when weight later moves back. The goal weight for platinum is
    /// the weight at which gold was earned (for "maintain", the first weight): held when every
    /// weigh-in of 90 consecutive days stays within ±2 % of it, weighing at least every 14 days.
    public static func earned(records: [DayRecord], goal: Goal, engine: CycleEngine?, through date: LocalDate) -> [Badge: LocalDate] {
        let days = records.filter { $0.date <= date }.sorted { $0.date < $1.date }
        var earned: [Badge: LocalDate] = [:]
        func award(_ category: Badge.Category, _ values: [(LocalDate, Double)]) {
            for (tier, threshold) in zip(Badge.Tier.allCases, Badge.thresholds[category] ?? []) {
                // a hair of tolerance so 2.0 % computed as 1.9999999 still counts
                if let first = values.first(where: { $0.1 >= threshold - 1e-9 }) { earned[Badge(category, tier)] = first.0 }
            }
        }
        award(.streak, streakRuns(days))
        var meals = 0
        award(
            .milestone,
            days.map {
                meals += $0.mealCount
                return ($0.date, Double(meals))
            }
        )
        if let engine {
            let byDate = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
            let completions = AdherentCycles.completions(byDate, engine: engine, through: date)
            award(.adherence, completions.enumerated().map { ($0.element, Double($0.offset + 1)) })
        }
        let progress = weightProgress(days, goal: goal)
        award(.weightProgress, progress)
        if let held = holdDate(days, goal: goal, goldDate: earned[Badge(.weightProgress, .gold)]) {
            earned[Badge(.weightProgress, .platinum)] = held
        }
        return earned
    }

    /// Badges are never lost: everything stored stays, new badges are added, and the earlier
    /// date wins when both know a badge (e.g. history was trimmed after the store saved it).
    public static func merge(stored: [Badge: LocalDate], fresh: [Badge: LocalDate]) -> [Badge: LocalDate] {
        stored.merging(fresh) { min($0, $1) }
    }

    /// The badges first earned exactly on `date`, in display order (for the triple roar and
    /// the coach's badge line).
    public static func earned(on date: LocalDate, records: [DayRecord], goal: Goal, engine: CycleEngine?) -> [Badge] {
        earned(records: records, goal: goal, engine: engine, through: date).filter { $0.value == date }.map(\.key).sorted()
    }

    /// The streak length on each day.
    static func streakRuns(_ days: [DayRecord]) -> [(LocalDate, Double)] {
        var run = 0
        var previous: LocalDate?
        return days.map { day in
            run = day.isActive ? (previous.map { $0.adding(days: 1) == day.date } == true ? run + 1 : 1) : 0
            previous = day.isActive ? day.date : nil
            return (day.date, Double(run))
        }
    }

    /// Percent change of the rolling average from the first weight, in the goal's direction.
    static func weightProgress(_ days: [DayRecord], goal: Goal) -> [(LocalDate, Double)] {
        guard goal != .maintain else { return [] }
        let entries = days.compactMap { day in day.weightKg.flatMap { try? WeightEntry(date: day.date, kg: $0) } }
        guard let first = entries.first else { return [] }
        return entries.map { entry in
            let average = WeightTrend.rollingAverage(entries, through: entry.date) ?? first.kg
            let change = (first.kg - average) / first.kg * 100
            return (entry.date, goal == .lose ? change : -change)
        }
    }

    /// The day 90 days of holding the goal weight were completed, if they were.
    static func holdDate(_ days: [DayRecord], goal: Goal, goldDate: LocalDate?) -> LocalDate? {
        let weighIns = days.compactMap { day in day.weightKg.map { (day.date, $0) } }
        let from: LocalDate? = goal == .maintain ? weighIns.first?.0 : goldDate
        guard let from, let target = weighIns.last(where: { $0.0 <= from })?.1 ?? weighIns.first?.1 else { return nil }
        var holdStart = from
        var lastWeighIn = from
        for (date, kg) in weighIns where date >= from {
            if lastWeighIn.days(to: date) > Badge.holdMaxGapDays { holdStart = date }
            lastWeighIn = date
            if abs(kg - target) > Badge.holdTolerance * target {
                holdStart = date.adding(days: 1)
            } else if holdStart.days(to: date) >= Badge.holdDays - 1 {
                return date
            }
        }
        return nil
    }
}
