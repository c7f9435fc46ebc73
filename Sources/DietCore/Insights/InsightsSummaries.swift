import Foundation

/// Days counted together: how many were logged, how many of those were adherent, how many
/// were not logged (never counted as misses), the mean intake of the logged days and the mean
/// target of all of them. Days recovery mode was on rest: only their number is kept.
public struct Tally: Hashable, Sendable, Encodable {
    /// The phase of these days; nil for a week's or the window's total.
    public let phase: InsightsPhase?
    public let days: Int
    public let loggedDays: Int
    public let unloggedDays: Int
    public let adherentDays: Int
    /// Days recovery mode was on: neither logged nor unlogged, never judged.
    public let restedDays: Int
    /// The mean intake of the logged days; nil when none was logged.
    public let averageIntakeKcal: Double?
    /// The mean target of all the days (the target applies whether or not a day was logged).
    public let averageTargetKcal: Double?

    init(_ given: [InsightsDay], phase: InsightsPhase? = nil) {
        // days before the programme's start with nothing logged are not days of it
        let all = given.filter(\.counted)
        let days = all.filter { !$0.rested }
        let logged = days.compactMap(\.intakeKcal)
        self.phase = phase
        self.days = all.count
        restedDays = all.count - days.count
        loggedDays = logged.count
        unloggedDays = days.count - logged.count
        adherentDays = days.filter { $0.adherent == true }.count
        averageIntakeKcal = logged.isEmpty ? nil : Double(logged.reduce(0, +)) / Double(logged.count)
        averageTargetKcal = days.isEmpty ? nil : Double(days.map(\.targetKcal).reduce(0, +)) / Double(days.count)
    }

    enum CodingKeys: String, CodingKey {
        case phase, days
        case loggedDays = "logged_days"
        case unloggedDays = "unlogged_days"
        case adherentDays = "adherent_days"
        case restedDays = "rested_days"
        case averageIntakeKcal = "average_intake_kcal"
        case averageTargetKcal = "average_target_kcal"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(phase, forKey: .phase)
        try c.encode(days, forKey: .days)
        try c.encode(loggedDays, forKey: .loggedDays)
        try c.encode(unloggedDays, forKey: .unloggedDays)
        try c.encode(adherentDays, forKey: .adherentDays)
        try c.encode(restedDays, forKey: .restedDays)
        try c.encode(averageIntakeKcal, forKey: .averageIntakeKcal)
        try c.encode(averageTargetKcal, forKey: .averageTargetKcal)
    }
}

/// Per phase, in the order the phases first appear among `days`; rested days and uncounted
/// days before the start belong to none.
enum PhaseSummary {
    static func grouped(_ all: [InsightsDay]) -> [Tally] {
        let days = all.filter { !$0.rested && $0.counted }
        var order: [InsightsPhase] = []
        for day in days where !order.contains(day.phase) { order.append(day.phase) }
        return order.map { phase in Tally(days.filter { $0.phase == phase }, phase: phase) }
    }
}

/// One Monday–Sunday week (the current one up to today).
public struct WeekSummary: Hashable, Sendable, Encodable {
    public let start: LocalDate
    public let end: LocalDate
    /// The last day counted: Sunday, or today in the current week.
    public let through: LocalDate
    public let total: Tally
    public let phases: [Tally]
    /// The dashboard's 7-entry average as it stood on `through`.
    public let rollingAverageKg: Double?
    /// The Hacker's Diet trend as it stood on `through`.
    public let trendKg: Double?
    /// How far the trend moved from the day before `start` to `through`.
    public let trendChangeKg: Double?
    /// ISO weekdays (1 = Monday) with a meal, a weight or a mindful meal: regularity in words.
    public let activeWeekdays: [Int]

    init(days: [InsightsDay], weights: [WeightEntry], trend: TrendLookup) {
        let start = days.first?.date ?? LocalDate(dayNumber: 0)
        let through = days.last?.date ?? start
        self.start = start
        end = start.adding(days: 6)
        self.through = through
        total = Tally(days)
        phases = PhaseSummary.grouped(days)
        rollingAverageKg = WeightTrend.rollingAverage(weights, through: through)
        let now = trend.asOf(through)
        trendKg = now
        trendChangeKg = now.flatMap { now in trend.asOf(start.adding(days: -1)).map { now - $0 } }
        activeWeekdays = days.filter(\.active).map(\.date.isoWeekday)
    }

    enum CodingKeys: String, CodingKey {
        case start, end, through, total, phases
        case rollingAverageKg = "rolling_average_kg"
        case trendKg = "trend_kg"
        case trendChangeKg = "trend_change_kg"
        case activeWeekdays = "active_weekdays"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(through, forKey: .through)
        try c.encode(total, forKey: .total)
        try c.encode(phases, forKey: .phases)
        try c.encode(rollingAverageKg, forKey: .rollingAverageKg)
        try c.encode(trendKg, forKey: .trendKg)
        try c.encode(trendChangeKg, forKey: .trendChangeKg)
        try c.encode(activeWeekdays, forKey: .activeWeekdays)
    }
}

/// The weight today: latest entry, the dashboard's 7-entry average, the trend and its pace.
public struct WeightSummary: Hashable, Sendable, Encodable {
    public let latestKg: Double?
    public let rollingAverageKg: Double?
    public let trendKg: Double?
    /// The trend's change per week over the last 14 days; nil with fewer than 2 weigh-ins in
    /// them or no trend 14 days ago.
    public let trendKgPerWeek: Double?

    public static let paceDays = 14

    init(weights: [WeightEntry], trend: TrendLookup, today: LocalDate) {
        latestKg = weights.last?.kg
        rollingAverageKg = WeightTrend.rollingAverage(weights, through: today)
        trendKg = trend.asOf(today)
        let since = today.adding(days: -Self.paceDays)
        let recent = weights.filter { $0.date >= since }.count
        if recent >= 2, let now = trend.asOf(today), let then = trend.asOf(since) {
            trendKgPerWeek = (now - then) * 7 / Double(Self.paceDays)
        } else {
            trendKgPerWeek = nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case latestKg = "latest_kg"
        case rollingAverageKg = "rolling_average_kg"
        case trendKg = "trend_kg"
        case trendKgPerWeek = "trend_kg_per_week"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(latestKg, forKey: .latestKg)
        try c.encode(rollingAverageKg, forKey: .rollingAverageKg)
        try c.encode(trendKg, forKey: .trendKg)
        try c.encode(trendKgPerWeek, forKey: .trendKgPerWeek)
    }
}

/// The runs of active days: the current one, the longest ever, and those touching the window.
public struct StreakHistory: Hashable, Sendable, Encodable {
    public let current: Int
    public let isLit: Bool
    public let longest: Int
    /// Runs that end inside the window, oldest first (a run may begin before it).
    public let runs: [StreakRun]

    init(activeDays: Set<LocalDate>, window: ClosedRange<LocalDate>) {
        let today = window.upperBound
        let status = StreakStatus(activeDays: activeDays, today: today)
        current = status.count
        isLit = status.isLit
        longest = StreakStatus.longest(activeDays: activeDays, through: today)
        var runs: [StreakRun] = []
        for day in activeDays.filter({ $0 <= today }).sorted() {
            if let last = runs.last, last.end.adding(days: 1) == day {
                runs[runs.count - 1] = StreakRun(start: last.start, end: day)
            } else {
                runs.append(StreakRun(start: day, end: day))
            }
        }
        self.runs = runs.filter { $0.end >= window.lowerBound }
    }

    enum CodingKeys: String, CodingKey {
        case current, longest, runs
        case isLit = "is_lit"
    }
}

/// Consecutive active days, `start` through `end`.
public struct StreakRun: Hashable, Sendable, Encodable {
    public let start: LocalDate
    public let end: LocalDate
    public var days: Int { start.days(to: end) + 1 }

    enum CodingKeys: String, CodingKey { case start, end, days }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(days, forKey: .days)
    }
}

/// The adaptive maintenance estimate (docs/rules.md §3a) over the last 28 days, as settings offers it.
public struct MaintenanceInsight: Hashable, Sendable, Encodable {
    public let result: AdaptiveMaintenance.Result
    public let formulaKcal: Int

    init(_ input: WeeklyInsights.Input, weights: [WeightEntry]) {
        self.init(
            profile: input.profile,
            today: input.today,
            intake: input.intake,
            weights: weights,
            acceptedMaintenanceKcal: input.acceptedMaintenanceKcal
        )
    }

    /// The estimate over the 28 days through `today` (`WeeklyInsights.estimateWindow`), against the
    /// formula TDEE of today (from the latest weight on or before it), as settings offers it.
    /// - Parameters:
    ///   - intake: meal calories per local date of the window (absent: nothing logged).
    ///   - weights: the window's weigh-ins and at least the latest one before it.
    public init(profile: Profile, today: LocalDate, intake: [LocalDate: Int], weights: [WeightEntry], acceptedMaintenanceKcal: Int?) {
        let window = WeeklyInsights.estimateWindow(today: today)
        let latest = weights.filter { $0.date <= today }.max { $0.date < $1.date }?.kg
        let plan = EnergyPlan(profile: profile, latestWeightKg: latest, on: today, acceptedMaintenanceKcal: acceptedMaintenanceKcal)
        let days = (0..<WeeklyInsights.estimateDays).map { offset in
            let date = window.lowerBound.adding(days: offset)
            return AdaptiveMaintenance.Day(date: date, intakeKcal: intake[date])
        }
        formulaKcal = Energy.wholeKcal(plan.tdee)
        result = AdaptiveMaintenance.estimate(days: days, weights: weights.filter { window.contains($0.date) }, tdeeKcal: formulaKcal)
    }

    public var estimate: AdaptiveMaintenance.Estimate? {
        if case .estimate(let estimate) = result { return estimate }
        return nil
    }

    /// "Your data suggests …" or why the formula stands.
    public var message: Message {
        switch result {
        case .estimate(let estimate): estimate.message
        case .formula(_, let because): because.message
        }
    }

    enum CodingKeys: String, CodingKey {
        case source, kcal, confidence, clamped
        case formulaKcal = "formula_kcal"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(estimate == nil ? "formula" : "estimate", forKey: .source)
        try c.encode(estimate?.kcal ?? formulaKcal, forKey: .kcal)
        try c.encode(formulaKcal, forKey: .formulaKcal)
        try c.encode(estimate?.confidence.rawValue, forKey: .confidence)
        try c.encode(estimate?.clamped ?? false, forKey: .clamped)
    }
}
