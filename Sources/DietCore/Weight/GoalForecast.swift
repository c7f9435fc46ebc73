import Foundation

/// Where the goal weight stands and when it is expected (docs/rules.md §2).
///
/// The weight now is the Hacker's Diet trend (`WeightTrend.smoothed`), the one headline weight.
/// The pace is the trend's over the last 4 weeks once weigh-ins fall on 14 days; before that
/// it is the plan's: each coming day's energy balance (the MATADOR blocks' deficits, the
/// surplus when gaining) at 7,700 kcal per kg. A pace pointing away from the goal gives no
/// date, nor does one slower than five years.
public struct GoalForecast: Hashable, Sendable {
    /// What the pace was read from.
    public enum Basis: String, Hashable, Sendable {
        case trend
        case plan
    }

    public enum Outlook: Hashable, Sendable {
        /// The trend is at or past the goal.
        case reached
        /// The day the goal is expected, at the pace.
        case expected(LocalDate)
        /// The pace points away from the goal (or stands still): no date.
        case away
        /// At this pace it takes more than five years (or the plan ends first): no date.
        case beyondHorizon
    }

    public let goal: Goal
    public let goalKg: Double
    /// The trend now, else the onboarding weight.
    public let currentKg: Double
    public let basis: Basis
    /// Kilograms per week; negative is a loss.
    public let paceKgPerWeek: Double
    public let outlook: Outlook

    /// Weigh-ins on this many days make the trend's pace the basis.
    public static let trendDays = 14
    /// The span the trend's pace is read over.
    public static let paceDays = 28
    public static let kcalPerKg = 7700.0
    public static let horizonDays = 5 * 365

    /// - Parameters:
    ///   - weights: the weigh-ins up to today (older ones may be left out: the trend forgets
    ///     90 % in 22 days).
    ///   - fallbackKg: the weight without any weigh-in (the onboarding weight).
    ///   - balance: the plan's energy balance on a day in kcal (negative: a deficit).
    /// - Returns: nil without a goal weight or when the goal is maintain.
    public init?(
        goal: Goal,
        goalKg: Double?,
        weights: [WeightEntry],
        fallbackKg: Double,
        today: LocalDate,
        balance: (LocalDate) -> Double
    ) {
        guard let goalKg, goal != .maintain else { return nil }
        self.goal = goal
        self.goalKg = goalKg
        let trend = WeightTrend.smoothed(weights.filter { $0.date <= today })
        currentKg = trend.last?.trendKg ?? fallbackKg
        let sign: Double = goal == .lose ? -1 : 1
        let remaining = (goalKg - currentKg) * sign
        if Set(weights.map(\.date)).count >= Self.trendDays, let last = trend.last {
            let start = trend.first { $0.date >= last.date.adding(days: -Self.paceDays) } ?? last
            let days = Double(start.date.days(to: last.date))
            let perDay = days > 0 ? (last.trendKg - start.trendKg) / days : 0
            basis = .trend
            paceKgPerWeek = perDay * 7
            outlook = Self.outlook(remaining: remaining, towardPerDay: perDay * sign, from: max(last.date, today))
        } else {
            basis = .plan
            var kcal = 0.0
            var reachedOn: LocalDate?
            let needed = remaining * Self.kcalPerKg
            // day by day until the goal; stop once 8 weeks pass without a step toward it (a plan
            // without a deficit, the study preset's end)
            var lastStep = 0
            for index in 1...Self.horizonDays where remaining > 0 {
                let day = today.adding(days: index)
                let step = balance(day) * sign
                kcal += step
                if step > 0 { lastStep = index }
                if kcal >= needed {
                    reachedOn = day
                    break
                }
                if index - lastStep > 56 { break }
            }
            let weekKcal = (1...Self.paceDays).map { balance(today.adding(days: $0)) }.reduce(0, +) / Double(Self.paceDays) * 7
            paceKgPerWeek = weekKcal / Self.kcalPerKg
            if remaining <= 0 {
                outlook = .reached
            } else if let reachedOn {
                outlook = .expected(reachedOn)
            } else {
                outlook = paceKgPerWeek * sign > 0 ? .beyondHorizon : .away
            }
        }
    }

    private static func outlook(remaining: Double, towardPerDay: Double, from start: LocalDate) -> Outlook {
        if remaining <= 0 { return .reached }
        guard towardPerDay > 1e-6 else { return .away }
        let days = (remaining / towardPerDay).rounded(.up)
        guard days <= Double(horizonDays) else { return .beyondHorizon }
        return .expected(start.adding(days: Int(days)))
    }

    /// The goal is reached by the trend.
    public var isReached: Bool { outlook == .reached }

    /// Kilograms still to go, never negative.
    public var remainingKg: Double { max(0, (goalKg - currentKg) * (goal == .lose ? -1 : 1)) }
}

extension GoalForecast {
    /// The plan's energy balance on a day (docs/rules.md §2): losing follows the MATADOR calendar
    /// (diet days' target below maintenance, the others at it), gaining the surplus target.
    public static func planBalance(plan: EnergyPlan, engine: CycleEngine) -> (LocalDate) -> Double {
        let maintenance = Double(plan.maintenanceKcal)
        let kcal = Dictionary(uniqueKeysWithValues: TargetKind.allCases.map { ($0, Double(plan.targets($0).kcal) - maintenance) })
        return { date in
            switch plan.profile.goal {
            case .maintain: return 0
            case .gain: return kcal[.surplus] ?? 0
            case .lose:
                let day = engine.day(on: date)
                return kcal[day.paused ? .maintenance : day.phase.targetKind] ?? 0
            }
        }
    }
}

extension GoalForecast {
    /// "Ziel 75,0 kg · noch 6,0 kg" (reached: "Ziel 75,0 kg erreicht").
    public var headline: Message {
        isReached
            ? Message("goal.headline.reached", ["goal": .decimal(goalKg, digits: 1)])
            : Message("goal.headline", ["goal": .decimal(goalKg, digits: 1), "remaining": .decimal(remainingKg, digits: 1)])
    }

    /// When, and from what: the expected date with its basis and pace, or why there is none.
    public var outlookMessage: Message {
        let pace = Message(
            paceKgPerWeek < 0 ? "goal.pace.down" : "goal.pace.up",
            ["kg": .decimal(abs(paceKgPerWeek), digits: 2)]
        )
        return switch outlook {
        case .reached: Message("goal.outlook.reached", ["current": .decimal(currentKg, digits: 1)])
        case .expected(let date): Message("goal.outlook.expected.\(basis.rawValue)", ["date": .date(date), "pace": .message(pace)])
        case .away: Message("goal.outlook.away.\(basis.rawValue)", ["pace": .message(pace)])
        case .beyondHorizon: Message("goal.outlook.beyond", ["pace": .message(pace)])
        }
    }

    /// The expected date, if any.
    public var expectedDate: LocalDate? {
        if case .expected(let date) = outlook { return date }
        return nil
    }
}
