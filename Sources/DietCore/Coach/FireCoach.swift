/// The fire coach's four looks (seed 000).
public enum FireVariation: String, CaseIterable, Codable, Sendable {
    /// 🔥 everyday company.
    case `default`
    /// 🔥🤓 teaching: a new phase, the habit week, a "why" moment.
    case glasses
    /// 🔥💪 celebrating: every macro on target, a streak milestone, a badge.
    case strong
    /// 🔥😌 soothing: nothing logged yet late in the day, over the target, a fresh start.
    case gentle

    public var emoji: String {
        switch self {
        case .default: "🔥"
        case .glasses: "🔥🤓"
        case .strong: "🔥💪"
        case .gentle: "🔥😌"
        }
    }
}

/// What the coach looks at: plain facts of the day, computed elsewhere.
public struct CoachInput: Hashable, Sendable {
    public var phase: Phase
    public var dayInPhase: Int
    public var daysUntilSwitch: Int?
    public var anythingLogged: Bool
    public var allMacrosGood: Bool
    public var eatenKcal: Int
    public var targetKcal: Int
    public var streak: StreakStatus
    /// The local hour, 0–23.
    public var hour: Int
    public var badgeEarnedToday: Bool
    /// The streak was broken recently (a restart after a gap).
    public var restartedAfterGap: Bool

    public init(phase: Phase, dayInPhase: Int, daysUntilSwitch: Int?, anythingLogged: Bool, allMacrosGood: Bool,
                eatenKcal: Int, targetKcal: Int, streak: StreakStatus, hour: Int, badgeEarnedToday: Bool = false,
                restartedAfterGap: Bool = false) {
        self.phase = phase
        self.dayInPhase = dayInPhase
        self.daysUntilSwitch = daysUntilSwitch
        self.anythingLogged = anythingLogged
        self.allMacrosGood = allMacrosGood
        self.eatenKcal = eatenKcal
        self.targetKcal = targetKcal
        self.streak = streak
        self.hour = hour
        self.badgeEarnedToday = badgeEarnedToday
        self.restartedAfterGap = restartedAfterGap
    }
}

/// The coach's look and line for the day, chosen by rules (never in views). Supportive,
/// never shaming: an over-target day is met with calm, a quiet day with an invitation.
public struct CoachAdvice: Hashable, Sendable {
    public let variation: FireVariation
    public let message: Message
    /// Which rule chose it (for tests, analytics and the web's `data-` attributes).
    public let situation: Situation

    public enum Situation: String, CaseIterable, Sendable {
        case badge, milestone, allGood, phaseStart, habitWeek, switchTomorrow, overTarget, quietEvening, freshStart,
             morning, steady
    }

    /// How many messages each situation has in the string tables (`coach.<situation>.<n>`).
    static let variants = 3

    /// Rules in priority order: celebrate first, then teach, then soothe, else keep company.
    /// The message variant rotates by day so the coach does not repeat itself daily.
    public init(_ input: CoachInput, today: LocalDate) {
        let situation = Self.situation(input)
        self.situation = situation
        variation = switch situation {
        case .badge, .milestone, .allGood: .strong
        case .phaseStart, .habitWeek, .switchTomorrow: .glasses
        case .overTarget, .quietEvening, .freshStart: .gentle
        case .morning, .steady: .default
        }
        let variant = ((today.dayNumber % Self.variants) + Self.variants) % Self.variants + 1
        message = Message("coach.\(situation.rawValue).\(variant)", [
            "days": .integer(input.streak.count), "phase": .message(input.phase.nameMessage),
            "left": .integer(max(0, input.targetKcal - input.eatenKcal)),
        ])
    }

    static func situation(_ input: CoachInput) -> Situation {
        if input.badgeEarnedToday { return .badge }
        if input.streak.milestoneToday != nil { return .milestone }
        if input.allMacrosGood { return .allGood }
        if input.dayInPhase == 1 && input.phase != .habit { return .phaseStart }
        if input.eatenKcal > input.targetKcal && input.anythingLogged { return .overTarget }
        if input.daysUntilSwitch == 1 && input.phase != .completed { return .switchTomorrow }
        if input.phase == .habit && input.dayInPhase <= 2 && !input.anythingLogged { return .habitWeek }
        if !input.anythingLogged && input.hour >= 18 { return .quietEvening }
        if input.restartedAfterGap { return .freshStart }
        if !input.anythingLogged { return .morning }
        return .steady
    }
}
