/// Points with decay (docs/rules.md §5): earned by logging, shrinking on inactive days.
///
/// Rounding: the balance stays fractional internally (decay compounds on exact values); the
/// shown total is the balance rounded down to whole points, so decay never shows a point the
/// user does not have.
public struct PointsLedger: Hashable, Sendable {
    public static let mealDay = 10.0
    public static let allMacrosBonus = 5.0
    public static let weightEntry = 5.0
    public static let cycleWithinTargets = 100.0
    public static let dailyLogin = 2.0
    public static let decay = 0.01
    public static let penaltyDecay = 0.05
    public static let penaltyDays = 7

    /// Why points were earned (`points_reason`, docs/rules.md §5).
    public enum Reason: String, CaseIterable, Codable, Sendable {
        /// +10 once per day with at least one meal.
        case mealLogged = "meal_logged"
        /// +5 when that day's macros were all at least 70 % of their goals.
        case macrosBonus = "macros_bonus"
        /// +5 for the day's weight entry.
        case weightEntry = "weight_entry"
        /// +100 on the last day of a MATADOR cycle completed within targets.
        case cycleCompleted = "cycle_completed"
        /// +2 for opening the app that day.
        case dailyLogin = "daily_login"

        /// "Meal logged", "Weight logged", …
        public var message: Message { Message("points.reason.\(rawValue)") }
    }

    /// One day of the ledger.
    public struct Day: Hashable, Sendable {
        public let date: LocalDate
        /// Points earned that day by reason; only reasons that applied.
        public let breakdown: [Reason: Double]
        public let decayed: Double
        /// The balance after the day, before display rounding.
        public let balance: Double

        /// Everything earned that day.
        public var earned: Double { breakdown.values.reduce(0, +) }

        /// The balance shown: whole points, rounded down.
        public var shownBalance: Int { Int(balance.rounded(.down)) }

        /// The decay in whole points as the shown balances tell it: the day before's shown
        /// balance plus the points earned, less this day's shown balance (84 + 0 − 79 = 5, never
        /// "−4,5" beside whole balances); 0 when nothing shown was lost.
        public var shownDecay: Int {
            guard decayed > 0 else { return 0 }
            let before = Int((balance + decayed - earned).rounded(.down))
            return max(0, before + Int(earned.rounded()) - shownBalance)
        }
    }

    public let days: [Day]

    /// The balance shown: whole points, rounded down.
    public var total: Int { Int((days.last?.balance ?? 0).rounded(.down)) }

    /// "1,234 points".
    public var totalMessage: Message { Message("points.total", ["count": .integer(total)]) }

    /// Walks every day from the first record through `through`. Days without a record are
    /// inactive. Each day first adds what it earned; an inactive day then decays the balance by
    /// 1 %, or by 5 % during the 7 days after a streak broke (the first inactive day after an
    /// active one breaks the streak and starts that window, counted in calendar days). Any
    /// active day stops decay. Cycles completed within targets add 100 on their last day.
    public init(records: [DayRecord], cycleCompletions: [LocalDate] = [], through date: LocalDate) {
        let byDate = Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let completions = Set(cycleCompletions)
        var result: [Day] = []
        var cursor = records.map(\.date).min() ?? date.adding(days: 1)
        var balance = 0.0
        var penaltyLeft = 0
        var previousActive = false
        while cursor <= date {
            let record = byDate[cursor]
            let breakdown = Self.earnings(record, cycleCompleted: completions.contains(cursor))
            balance += breakdown.values.reduce(0, +)
            let active = record?.isActive == true
            var decayed = 0.0
            if !active {
                if previousActive { penaltyLeft = Self.penaltyDays }
                decayed = balance * (penaltyLeft > 0 ? Self.penaltyDecay : Self.decay)
                balance -= decayed
            }
            penaltyLeft = max(0, penaltyLeft - 1)
            previousActive = active
            result.append(Day(date: cursor, breakdown: breakdown, decayed: decayed, balance: balance))
            cursor = cursor.adding(days: 1)
        }
        days = result
    }

    /// The same ledger with the cycle bonuses found by `AdherentCycles` on the programme of
    /// `engine` (nil: no MATADOR programme, no cycle bonus).
    public init(records: [DayRecord], engine: CycleEngine?, through date: LocalDate) {
        let byDate = Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let completions = engine.map { AdherentCycles.completions(byDate, engine: $0, through: date) } ?? []
        self.init(records: records, cycleCompletions: completions, through: date)
    }

    /// What one day earns before decay.
    static func earnings(_ record: DayRecord?, cycleCompleted: Bool) -> [Reason: Double] {
        var points: [Reason: Double] = [:]
        if let record {
            if record.mealCount > 0 { points[.mealLogged] = mealDay }
            if record.mealCount > 0 && record.allMacrosGood { points[.macrosBonus] = allMacrosBonus }
            if record.weightKg != nil { points[.weightEntry] = weightEntry }
            if record.opened { points[.dailyLogin] = dailyLogin }
        }
        if cycleCompleted { points[.cycleCompleted] = cycleWithinTargets }
        return points
    }
}
