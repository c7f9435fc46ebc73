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

    /// Percent of the goal, rounded down to a whole percent for display (69.96 % shows "69 %"
    /// and is on track, never "70 %" next to a 😐). nil when the goal is 0 g.
    public var percent: Int? {
        guard goalG > 0 else { return nil }
        return Int((eatenG / goalG * 100).rounded(.down))
    }

    enum CodingKeys: String, CodingKey {
        case macro, smiley
        case eatenG = "eaten_g"
        case goalG = "goal_g"
    }
}

/// Per-macro feedback (SPEC §5).
public enum MacroFeedback {
    /// Percent thresholds: at least 70 good, at least 50 on track, below needs attention.
    public static let goodPercent = 70
    public static let onTrackPercent = 50

    /// The smiley for `eatenG` of `goalG`. Nothing logged today → neutral. A goal of 0 g
    /// (carbohydrate floored to nothing) is met by definition → good.
    ///
    /// Compared in tenths of a gram with integers, so exactly 70 % is good even where binary
    /// floating point would make it 69.999… %.
    public static func smiley(eatenG: Double, goalG: Double, anythingLogged: Bool) -> Smiley {
        guard anythingLogged else { return .neutral }
        let eaten = Int((eatenG * 10).rounded())
        let goal = Int((goalG * 10).rounded())
        guard goal > 0 else { return .good }
        if eaten * 100 >= goodPercent * goal { return .good }
        if eaten * 100 >= onTrackPercent * goal { return .onTrack }
        return .needsAttention
    }

    /// Progress of the three macros of `totals` against `targets`.
    public static func progress(_ totals: DailyTotals, targets: DailyTargets) -> [MacroProgress] {
        Macro.allCases.map { macro in
            let (eaten, goal) = switch macro {
            case .protein: (totals.proteinG, targets.proteinG)
            case .carbs: (totals.carbsG, targets.carbsG)
            case .fat: (totals.fatG, targets.fatG)
            }
            return MacroProgress(macro: macro, eatenG: eaten, goalG: goal,
                                 smiley: smiley(eatenG: eaten, goalG: goal, anythingLogged: !totals.isEmpty))
        }
    }

    /// Whether every macro is at least 70 % of its goal (the double roar, the +5 bonus).
    public static func allGood(_ progress: [MacroProgress]) -> Bool {
        !progress.isEmpty && progress.allSatisfy { $0.smiley == .good }
    }
}
