/// The fire coach's four looks (docs/rules.md §5).
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
    /// At least one meal logged today.
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
    /// Protein, carbs, fat smileys in ring order; empty when unknown.
    public var smileys: [Smiley]
    /// A weight was logged today.
    public var weightLoggedToday: Bool
    /// Recovery mode is on (docs/rules.md §8): the coach speaks without numbers, streaks or targets.
    public var recoveryMode: Bool = false
    /// Recovery mode was turned on today.
    public var recoveryStartedToday: Bool = false

    /// - Parameter weightLoggedToday: when nil, derived from the streak: a lit flame with no meal
    ///   means today's activity was a weigh-in.
    public init(
        phase: Phase,
        dayInPhase: Int,
        daysUntilSwitch: Int?,
        anythingLogged: Bool,
        allMacrosGood: Bool,
        eatenKcal: Int,
        targetKcal: Int,
        streak: StreakStatus,
        hour: Int,
        badgeEarnedToday: Bool = false,
        restartedAfterGap: Bool = false,
        smileys: [Smiley] = [],
        weightLoggedToday: Bool? = nil
    ) {
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
        self.smileys = smileys
        self.weightLoggedToday = weightLoggedToday ?? (streak.isLit && !anythingLogged)
    }

    /// From the day's smileys and counts: all macros good when every smiley is 😊, logged when
    /// a meal exists, a restart when the streak says so.
    public init(
        phase: Phase,
        dayInPhase: Int,
        daysUntilSwitch: Int?,
        smileys: [Smiley],
        mealsToday: Int,
        weightLoggedToday: Bool,
        eatenKcal: Int,
        targetKcal: Int,
        streak: StreakStatus,
        hour: Int,
        badgeEarnedToday: Bool = false
    ) {
        self.init(
            phase: phase,
            dayInPhase: dayInPhase,
            daysUntilSwitch: daysUntilSwitch,
            anythingLogged: mealsToday > 0,
            allMacrosGood: mealsToday > 0 && !smileys.isEmpty && smileys.allSatisfy { $0 == .good },
            eatenKcal: eatenKcal,
            targetKcal: targetKcal,
            streak: streak,
            hour: hour,
            badgeEarnedToday: badgeEarnedToday,
            restartedAfterGap: streak.isFreshStart,
            smileys: smileys,
            weightLoggedToday: weightLoggedToday
        )
    }

    /// Day 1 of a diet or maintenance block (the habit week's day 1 is the habit-week lesson).
    public var isFirstDayOfPhase: Bool { dayInPhase == 1 && phase != .habit }

    /// Protein (the first smiley) is below half its goal.
    var proteinLow: Bool { smileys.first == .needsAttention }
}

/// The coach's look and line for the day, chosen by rules (never in views). Supportive,
/// never shaming: an over-target day is met with calm, a quiet day with an invitation.
public struct CoachAdvice: Hashable, Sendable {
    public let variation: FireVariation
    public let message: Message
    /// Which rule chose it (for tests, analytics and the web's `data-` attributes).
    public let situation: Situation

    public enum Situation: String, CaseIterable, Sendable {
        case badge, milestone, allGood, phaseStart, habitWeek, switchTomorrow, proteinTip, overTarget, quietEvening,
            freshStart, weighedIn, morning, steady
        /// Recovery mode (docs/rules.md §8), always gentle and without numbers: its first day, a meal
        /// noticed today, nothing yet in the evening, nothing yet earlier.
        case recoveryStart, recoveryLogged, recoveryEvening, recoveryMorning
    }

    /// How many messages each situation has in the string tables (`coach.<situation>.<n>`).
    static let variants = 3

    /// Rules in priority order: celebrate first, then teach, then soothe, else keep company.
    /// The message variant rotates by day so the coach does not repeat itself daily.
    public init(_ input: CoachInput, today: LocalDate) {
        let situation = Self.situation(input)
        self.situation = situation
        variation =
            switch situation {
            case .badge, .milestone, .allGood: .strong
            case .phaseStart, .habitWeek, .switchTomorrow, .proteinTip: .glasses
            case .overTarget, .quietEvening, .freshStart: .gentle
            case .recoveryStart, .recoveryLogged, .recoveryEvening, .recoveryMorning: .gentle
            case .weighedIn, .morning, .steady: .default
            }
        var variant = ((today.dayNumber % Self.variants) + Self.variants) % Self.variants + 1
        // "you carried it all the way" only when every day of the block so far was active (issue 30:
        // it was said after a skipped day); today may still be open
        if situation == .switchTomorrow, variant == Self.wholeBlockVariant, input.streak.count < input.dayInPhase - 1 { variant = 1 }
        if input.recoveryMode {
            // No argument at all: nothing hidden can reach a template or a JSON rendering of it.
            message = Message("coach.\(situation.rawValue).\(variant)")
            return
        }
        message = Message(
            "coach.\(situation.rawValue).\(variant)",
            [
                "days": .integer(input.streak.count), "phase": .message(input.phase.nameMessage),
                "left": .integer(max(0, input.targetKcal - input.eatenKcal)),
            ]
        )
    }

    /// The rules, first match wins:
    /// - strong: a badge today, a streak milestone today, every macro at 70 % or more;
    /// - glasses: day 1 of a block, the last day before a switch, protein below half its goal
    ///   from 15:00 with a meal logged, the first two habit-week days before any meal;
    /// - gentle: over the calorie target, nothing at all logged from 18:00, a fresh start after a
    ///   break;
    /// - default: a weigh-in but no meal yet, nothing yet earlier in the day, a steady day.
    ///
    /// In recovery mode only the recovery situations apply: its first day, then a meal
    /// noticed today, nothing yet from 18:00, else the morning's invitation. Celebrations of
    /// counts (badges, streak milestones, macros) and targets stay silent.
    /// The variant of `switchTomorrow` that praises a block carried all the way.
    static let wholeBlockVariant = 2

    static func situation(_ input: CoachInput) -> Situation {
        if input.recoveryMode {
            if input.recoveryStartedToday { return .recoveryStart }
            if input.anythingLogged { return .recoveryLogged }
            return input.hour >= 18 ? .recoveryEvening : .recoveryMorning
        }
        if input.badgeEarnedToday { return .badge }
        if input.streak.milestoneToday != nil { return .milestone }
        if input.allMacrosGood { return .allGood }
        if input.isFirstDayOfPhase { return .phaseStart }
        if input.eatenKcal > input.targetKcal && input.anythingLogged { return .overTarget }
        if input.daysUntilSwitch == 1 && input.phase != .completed { return .switchTomorrow }
        if input.proteinLow && input.anythingLogged && input.hour >= 15 { return .proteinTip }
        if input.phase == .habit && input.dayInPhase <= 2 && !input.anythingLogged { return .habitWeek }
        if !input.anythingLogged && !input.weightLoggedToday && input.hour >= 18 { return .quietEvening }
        if input.restartedAfterGap { return .freshStart }
        if !input.anythingLogged { return input.weightLoggedToday ? .weighedIn : .morning }
        return .steady
    }
}
