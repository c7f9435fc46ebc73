/// The three macros, in the order the ring draws them.
public enum Macro: String, CaseIterable, Codable, Sendable, CodingKeyRepresentable {
    case protein, carbs, fat

    public var kcalPerGram: Double {
        switch self {
        case .protein: Energy.kcalPerGramProtein
        case .carbs: Energy.kcalPerGramCarbs
        case .fat: Energy.kcalPerGramFat
        }
    }

    public var nameMessage: Message { Message("macro.\(rawValue)") }
}

/// One macro's progress: grams eaten against the goal, as a percentage and a smiley.
public struct MacroProgress: Hashable, Sendable, Codable {
    public let macro: Macro
    public let eatenG: Double
    public let goalG: Double
    public let smiley: Smiley

    public init(macro: Macro, eatenG: Double, goalG: Double, smiley: Smiley) {
        self.macro = macro
        self.eatenG = eatenG
        self.goalG = goalG
        self.smiley = smiley
    }

    /// Percent of the goal, rounded down to a whole percent for display (69.96 % shows "69 %"
    /// and is on track, never "70 %" next to a 😐). nil when the goal is 0 g.
    public var percent: Int? {
        guard goalG > 0 else { return nil }
        return Int((eatenG / goalG * 100).rounded(.down))
    }

    /// Grams above the goal as the two are shown, in whole grams (0 at or under it): 153 of
    /// 124 g is 29 g over, whatever the tenths were.
    public var overG: Double { max(0, eatenG.rounded() - goalG.rounded()) }

    /// The smiley's words, with the grams over for a macro above its goal:
    /// "Great", "On track", "23 g above your goal".
    public var statusMessage: Message {
        smiley == .above
            ? Message("smiley.above_goal.amount", ["grams": .decimal(overG, digits: 0)])
            : Message("smiley.\(smiley.rawValue)")
    }

    enum CodingKeys: String, CodingKey {
        case macro, smiley
        case eatenG = "eaten_g"
        case goalG = "goal_g"
    }
}

/// Per-macro feedback (docs/rules.md §5).
public enum MacroFeedback {
    /// Percent thresholds: at least 70 good, at least 50 on track, below needs attention;
    /// carbs and fat above 120 % are above the goal.
    public static let goodPercent = 70
    public static let onTrackPercent = 50
    public static let abovePercent = 120

    /// The smiley of `macro` for `eatenG` of `goalG`, judged against `share` of the goal: the
    /// part of the day's goal due by now (docs/rules.md §5; 1 for a whole day). Nothing logged
    /// today → neutral. Carbs or fat above 120 % of the whole goal → above; protein stays good at
    /// any amount. A goal of 0 g (an old locked goal) is met by nothing, and any amount of a
    /// macro other than protein is above it.
    ///
    /// Compared in tenths of a gram with integers, so exactly 70 % is good even where binary
    /// floating point would make it 69.999… %.
    public static func smiley(_ macro: Macro, eatenG: Double, goalG: Double, share: Double = 1, anythingLogged: Bool) -> Smiley {
        guard anythingLogged else { return .neutral }
        let eaten = Int((eatenG * 10).rounded())
        let goal = Int((goalG * 10).rounded())
        if macro != .protein && eaten * 100 > abovePercent * goal { return .above }
        let due = Int((goalG * min(1, max(0, share)) * 10).rounded())
        guard due > 0 else { return .good }
        if eaten * 100 >= goodPercent * due { return .good }
        if eaten * 100 >= onTrackPercent * due { return .onTrack }
        return .needsAttention
    }

    /// The share of the day's goal due at `time` of a local day (docs/rules.md §5): with n
    /// eating moments, k/n once k of them have begun on the clock since midnight (the first
    /// share before any has: whatever is eaten early counts toward it), the whole goal once all
    /// have.
    public static func dueShare(at time: TimeOfDay, window: EatingWindow) -> Double {
        let moments = window.moments
        guard !moments.isEmpty else { return 1 }
        let begun = moments.filter { $0.minutesSinceMidnight <= time.minutesSinceMidnight }.count
        return Double(max(1, begun)) / Double(moments.count)
    }

    /// Progress of the three macros of `totals` against `targets`, the smileys judged against
    /// `share` of each goal (the bars and numbers always show the whole goal).
    public static func progress(_ totals: DailyTotals, targets: DailyTargets, share: Double = 1) -> [MacroProgress] {
        Macro.allCases.map { macro in
            let (eaten, goal) =
                switch macro {
                case .protein: (totals.proteinG, targets.proteinG)
                case .carbs: (totals.carbsG, targets.carbsG)
                case .fat: (totals.fatG, targets.fatG)
                }
            return MacroProgress(
                macro: macro,
                eatenG: eaten,
                goalG: goal,
                smiley: smiley(macro, eatenG: eaten, goalG: goal, share: share, anythingLogged: !totals.isEmpty)
            )
        }
    }

    /// Whether every macro is at least 70 % of its goal (the double roar, the +5 bonus).
    public static func allGood(_ progress: [MacroProgress]) -> Bool {
        !progress.isEmpty && progress.allSatisfy { $0.smiley == .good }
    }
}
