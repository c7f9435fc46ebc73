/// One local day as rewards see it.
public struct DayRecord: Hashable, Sendable, Codable {
    public let date: LocalDate
    public let mealCount: Int
    public let weightKg: Double?
    /// Every macro reached at least 70 % of its goal.
    public let allMacrosGood: Bool
    /// The app was opened that day (the +2 daily login).
    public let opened: Bool

    public init(date: LocalDate, mealCount: Int, weightKg: Double?, allMacrosGood: Bool, opened: Bool) {
        self.date = date
        self.mealCount = mealCount
        self.weightKg = weightKg
        self.allMacrosGood = allMacrosGood
        self.opened = opened
    }

    /// A meal or a weight: the day counts for the streak.
    public var isActive: Bool { mealCount > 0 || weightKg != nil }

    enum CodingKeys: String, CodingKey {
        case date, opened
        case mealCount = "meal_count"
        case weightKg = "weight_kg"
        case allMacrosGood = "all_macros_good"
    }
}

/// MATADOR cycles for rewards: a diet block and the maintenance block after it, 28 days.
public enum AdherentCycles {
    /// A cycle is within targets when at least 70 % of its days had every macro ≥ 70 % —
    /// the forgiving threshold of the seed applied to the whole cycle.
    public static let requiredShare = 0.7

    /// The last days of the cycles completed within targets on or before `date`, in order.
    public static func completions(_ records: [LocalDate: DayRecord], engine: CycleEngine, through date: LocalDate) -> [LocalDate] {
        var result: [LocalDate] = []
        var cycle = 0
        while true {
            // diet block 2c+1 starts on programme day 8 + 28c; its maintenance block ends 27 days later
            let first = engine.startDate.adding(days: 7 + 28 * cycle)
            let last = first.adding(days: 27)
            guard last <= date, engine.day(on: last).phase == .maintenance else { break }
            let good = (0..<28).filter { records[first.adding(days: $0)]?.allMacrosGood == true }.count
            if Double(good) >= requiredShare * 28 { result.append(last) }
            cycle += 1
        }
        return result
    }
}
