/// Points with decay (seed 000): earned by logging, shrinking on inactive days.
public struct PointsLedger: Hashable, Sendable {
    public static let mealDay = 10.0
    public static let allMacrosBonus = 5.0
    public static let weightEntry = 5.0
    public static let cycleWithinTargets = 100.0
    public static let dailyLogin = 2.0
    public static let decay = 0.01
    public static let penaltyDecay = 0.05
    public static let penaltyDays = 7

    /// One day of the ledger.
    public struct Day: Hashable, Sendable {
        public let date: LocalDate
        public let earned: Double
        public let decayed: Double
        /// The balance after the day, before display rounding.
        public let balance: Double
    }

    public let days: [Day]

    /// The balance shown: whole points, rounded down.
    public var total: Int { Int((days.last?.balance ?? 0).rounded(.down)) }

    /// Walks every day from the first record through `through`. Days without a record are
    /// inactive. An inactive day decays the balance by 1 %, or by 5 % during the 7 days after
    /// a streak broke (the first inactive day after an active one starts that window); any
    /// active day stops decay. Cycles completed within targets add 100 on their last day.
    public init(records: [DayRecord], cycleCompletions: [LocalDate] = [], through date: LocalDate) {
        let byDate = Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let completions = Set(cycleCompletions)
        var result: [Day] = []
        guard var cursor = records.map(\.date).min() else {
            days = []
            return
        }
        var balance = 0.0
        var penaltyLeft = 0
        var previousActive = false
        while cursor <= date {
            let record = byDate[cursor]
            var earned = 0.0
            if let record {
                if record.mealCount > 0 { earned += Self.mealDay }
                if record.mealCount > 0 && record.allMacrosGood { earned += Self.allMacrosBonus }
                if record.weightKg != nil { earned += Self.weightEntry }
                if record.opened { earned += Self.dailyLogin }
            }
            if completions.contains(cursor) { earned += Self.cycleWithinTargets }
            balance += earned
            let active = record?.isActive == true
            var decayed = 0.0
            if !active {
                if previousActive { penaltyLeft = Self.penaltyDays }
                decayed = balance * (penaltyLeft > 0 ? Self.penaltyDecay : Self.decay)
                balance -= decayed
            }
            penaltyLeft = max(0, penaltyLeft - 1)
            previousActive = active
            result.append(Day(date: cursor, earned: earned, decayed: decayed, balance: balance))
            cursor = cursor.adding(days: 1)
        }
        days = result
    }
}
