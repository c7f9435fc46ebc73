import Foundation

/// The weekly summary of docs/rules.md §8 over the last N weeks (Monday–Sunday, the current week up to
/// today): intake against each day's target per phase, adherence, the weight trend, streak
/// history, the adaptive maintenance estimate and one sentence of what it means. A plain
/// function of its input: the store reads the days, this computes.
public struct WeeklyInsights: Hashable, Sendable {
    /// The weeks `--weeks` and `?weeks=` accept.
    public static let weekRange = 1...52
    public static let defaultWeeks = 4
    /// Days of weigh-ins before the window that warm up the Hacker's Diet trend.
    public static let trendLeadInDays = 28
    /// The adaptive estimate's window ends today and spans this many days (as in settings).
    public static let estimateDays = 28

    /// What the summary needs.
    public struct Input: Sendable {
        public var profile: Profile
        public var startDate: LocalDate
        public var today: LocalDate
        public var weeks: Int
        /// Meal calories per local date (absent: nothing logged), at least over `readRange`.
        public var intake: [LocalDate: Int]
        /// The weigh-ins of `readRange` plus the 7 latest before the window (targets and the
        /// 7-entry average reach back to them).
        public var weights: [WeightEntry]
        /// Every active local date up to today (a meal, a weight or a mindful meal).
        public var activeDays: Set<LocalDate>
        public var acceptedMaintenanceKcal: Int?
        /// The days recovery mode was (or is) on: the cycle stood still, and nothing of them is
        /// judged afterwards (docs/rules.md §8).
        public var cyclePauses: CyclePauses

        public init(
            profile: Profile,
            startDate: LocalDate,
            today: LocalDate,
            weeks: Int,
            intake: [LocalDate: Int],
            weights: [WeightEntry],
            activeDays: Set<LocalDate>,
            acceptedMaintenanceKcal: Int? = nil,
            cyclePauses: CyclePauses = .none
        ) {
            self.profile = profile
            self.startDate = startDate
            self.today = today
            self.weeks = weeks
            self.intake = intake
            self.weights = weights
            self.activeDays = activeDays
            self.acceptedMaintenanceKcal = acceptedMaintenanceKcal
            self.cyclePauses = cyclePauses
        }
    }

    public let first: LocalDate
    public let last: LocalDate
    public let days: [InsightsDay]
    public let weeks: [WeekSummary]
    /// The whole window per phase, in the order the phases first appear.
    public let phases: [Tally]
    public let total: Tally
    public let weight: WeightSummary
    public let streak: StreakHistory
    public let maintenance: MaintenanceInsight
    /// One sentence of what the weeks mean: coach, not judge.
    public let meaning: Message

    /// The Monday `weeks − 1` weeks before this week's Monday through `today`.
    public static func window(weeks: Int, today: LocalDate) -> ClosedRange<LocalDate> {
        today.adding(days: 1 - today.isoWeekday - 7 * (weeks - 1))...today
    }

    /// The adaptive estimate's days: the last 28 through today.
    public static func estimateWindow(today: LocalDate) -> ClosedRange<LocalDate> {
        today.adding(days: 1 - estimateDays)...today
    }

    /// The dates whose intake and weights the summary reads: the window with the trend's lead-in
    /// and the estimate's days.
    public static func readRange(weeks: Int, today: LocalDate) -> ClosedRange<LocalDate> {
        let window = window(weeks: weeks, today: today)
        return min(window.lowerBound.adding(days: -trendLeadInDays), estimateWindow(today: today).lowerBound)...today
    }

    public init(_ input: Input) {
        let window = Self.window(weeks: input.weeks, today: input.today)
        let weights = input.weights.filter { $0.date <= input.today }.sorted { $0.date < $1.date }
        let trend = WeightTrend.smoothed(weights.filter { $0.date >= window.lowerBound.adding(days: -Self.trendLeadInDays) })
        let trendAt = TrendLookup(trend)
        let days = Self.days(input, window: window, weights: weights, trend: trendAt)
        first = window.lowerBound
        last = window.upperBound
        self.days = days
        weeks = stride(from: 0, to: days.count, by: 7).map { index in
            WeekSummary(days: Array(days[index..<min(index + 7, days.count)]), weights: weights, trend: trendAt)
        }
        phases = PhaseSummary.grouped(days)
        total = Tally(days)
        weight = WeightSummary(weights: weights, trend: trendAt, today: input.today)
        streak = StreakHistory(activeDays: input.activeDays, window: window)
        maintenance = MaintenanceInsight(input, weights: weights)
        meaning = InsightsMeaning.message(
            days: days,
            total: total,
            weight: weight,
            goal: input.profile.goal,
            startDate: input.startDate
        )
    }

    /// Each day of the window with its phase, intake, target (from the weight known that day),
    /// adherence and weight.
    static func days(_ input: Input, window: ClosedRange<LocalDate>, weights: [WeightEntry], trend: TrendLookup) -> [InsightsDay] {
        let cycle = CycleEngine(startDate: input.startDate, preset: input.profile.cyclePreset, pauses: input.cyclePauses)
        var latest: WeightEntry?
        var remaining = weights[...]
        return (0...window.lowerBound.days(to: window.upperBound)).map { offset in
            let date = window.lowerBound.adding(days: offset)
            while let next = remaining.first, next.date <= date {
                latest = next
                remaining = remaining.dropFirst()
            }
            let plan = EnergyPlan(
                profile: input.profile,
                latestWeightKg: latest?.kg,
                on: date,
                acceptedMaintenanceKcal: input.acceptedMaintenanceKcal
            )
            let cycling = input.profile.goal == .lose
            let phase = cycling && date >= input.startDate ? cycle.day(on: date).phase : nil
            let target = plan.targets(phase?.targetKind ?? plan.staticKind).kcal
            return InsightsDay(
                date: date,
                phase: cycling && phase == nil ? .before : InsightsPhase(phase),
                intakeKcal: input.intake[date],
                targetKcal: target,
                weightKg: latest?.date == date ? latest?.kg : nil,
                trendKg: trend.exact(date),
                active: input.activeDays.contains(date),
                rested: input.cyclePauses.isPaused(date),
                beforeStart: date < input.startDate
            )
        }
    }
}

/// A day's phase as the summary groups it: `before` for days before a cycling user's start
/// date, `steady` for days without a cycle (goals maintain
/// and gain, and days before the start date).
public enum InsightsPhase: String, Codable, Sendable, CaseIterable {
    case before, steady, habit, diet, maintenance, completed

    public init(_ phase: Phase?) {
        switch phase {
        case nil: self = .steady
        case .habit?: self = .habit
        case .diet?: self = .diet
        case .maintenance?: self = .maintenance
        case .completed?: self = .completed
        }
    }

    /// "Diet", "Habit week", … ; `steady` reads "Your target", `before` "Before your start".
    public var nameMessage: Message {
        self == .steady || self == .before ? Message("insights.phase.\(rawValue)") : Message("cycle.phase.\(rawValue)")
    }
}

/// One day of the window.
public struct InsightsDay: Hashable, Sendable, Encodable {
    public let date: LocalDate
    public let phase: InsightsPhase
    /// nil: no meal logged that day.
    public let intakeKcal: Int?
    public let targetKcal: Int
    /// The weight logged that day.
    public let weightKg: Double?
    /// The Hacker's Diet trend that day (nil outside the weigh-ins' span).
    public let trendKg: Double?
    /// A meal, a weight or a mindful meal that day.
    public let active: Bool
    /// Recovery mode was on that day: it is neither judged nor counted as logged or unlogged.
    public let rested: Bool
    /// The day lies before the programme's start: counted only when something was logged on it
    /// (imported history), never as unlogged (docs/rules.md §8).
    public let beforeStart: Bool

    /// Whether the day counts in a summary: from the start on, and before it only when logged.
    public var counted: Bool { !beforeStart || intakeKcal != nil }

    /// Logged and within 90–110 % of the day's target (in whole numbers: no rounding at the
    /// edges); nil when nothing was logged (counted apart, never a miss) or the day rested.
    public var adherent: Bool? {
        rested ? nil : intakeKcal.map { 10 * $0 >= 9 * targetKcal && 10 * $0 <= 11 * targetKcal }
    }

    enum CodingKeys: String, CodingKey {
        case date, phase, adherent, active, rested
        case beforeStart = "before_start"
        case intakeKcal = "intake_kcal"
        case targetKcal = "target_kcal"
        case weightKg = "weight_kg"
        case trendKg = "trend_kg"
    }

    public init(
        date: LocalDate,
        phase: InsightsPhase,
        intakeKcal: Int?,
        targetKcal: Int,
        weightKg: Double?,
        trendKg: Double?,
        active: Bool,
        rested: Bool = false,
        beforeStart: Bool = false
    ) {
        self.date = date
        self.phase = phase
        self.intakeKcal = intakeKcal
        self.targetKcal = targetKcal
        self.weightKg = weightKg
        self.trendKg = trendKg
        self.active = active
        self.rested = rested
        self.beforeStart = beforeStart
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date)
        try c.encode(phase, forKey: .phase)
        try c.encode(intakeKcal, forKey: .intakeKcal)
        try c.encode(targetKcal, forKey: .targetKcal)
        try c.encode(adherent, forKey: .adherent)
        try c.encode(weightKg, forKey: .weightKg)
        try c.encode(trendKg, forKey: .trendKg)
        try c.encode(active, forKey: .active)
        try c.encode(rested, forKey: .rested)
        try c.encode(beforeStart, forKey: .beforeStart)
    }
}

/// The Hacker's Diet trend by date: on a day of its span, or as it stood on a later day.
struct TrendLookup: Hashable, Sendable {
    let points: [TrendPoint]
    private let byDate: [LocalDate: Double]

    init(_ points: [TrendPoint]) {
        self.points = points
        byDate = Dictionary(points.map { ($0.date, $0.trendKg) }, uniquingKeysWith: { $1 })
    }

    func exact(_ date: LocalDate) -> Double? { byDate[date] }

    /// The trend of the last point on or before `date`.
    func asOf(_ date: LocalDate) -> Double? {
        guard let last = points.last else { return nil }
        if date >= last.date { return last.trendKg }
        return points.last { $0.date <= date }?.trendKg
    }
}

extension WeeklyInsights: Encodable {
    enum CodingKeys: String, CodingKey {
        case first, last, days, weeks, phases, total, weight, streak, maintenance
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(first, forKey: .first)
        try c.encode(last, forKey: .last)
        try c.encode(weeks, forKey: .weeks)
        try c.encode(phases, forKey: .phases)
        try c.encode(total, forKey: .total)
        try c.encode(weight, forKey: .weight)
        try c.encode(streak, forKey: .streak)
        try c.encode(maintenance, forKey: .maintenance)
        try c.encode(days, forKey: .days)
    }
}
