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
    ///
    /// Cycle c is programme days 8 + 28c through 35 + 28c (a diet block and the maintenance
    /// block after it). Days recovery mode paused the programme belong to no cycle: the cycle
    /// resumes after the pause and completes on the day its programme day 35 + 28c is reached.
    public static func completions(_ records: [LocalDate: DayRecord], engine: CycleEngine, through date: LocalDate) -> [LocalDate] {
        var result: [LocalDate] = []
        var good = 0
        var cursor = engine.startDate
        while cursor <= date {
            let day = engine.day(on: cursor)
            let offset = day.programmeDay - 1 - CycleEngine.habitDays
            if !day.paused, offset >= 0 {
                if offset % 28 == 0 { good = 0 }
                if records[cursor]?.allMacrosGood == true { good += 1 }
                if offset % 28 == 27, day.phase == .maintenance, Double(good) >= requiredShare * 28 { result.append(cursor) }
            }
            cursor = cursor.adding(days: 1)
        }
        return result
    }
}
