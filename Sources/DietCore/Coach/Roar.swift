/// The celebration after an action (docs/rules.md §5): a haptic and sound of one, two or three roars.
public enum Roar: Int, Comparable, CaseIterable, Codable, Sendable {
    case single = 1
    case double = 2
    case triple = 3

    public static func < (lhs: Roar, rhs: Roar) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The caption shown with the celebration: `roar.single`, `roar.double`, `roar.triple`.
    public var message: Message {
        switch self {
        case .single: Message("roar.single")
        case .double: Message("roar.double")
        case .triple: Message("roar.triple")
        }
    }

    /// What just happened.
    public struct Event: Hashable, Sendable {
        public var mealSaved: Bool
        public var allMacrosGood: Bool
        public var streakMilestone: Bool
        public var phaseCompleted: Bool
        public var badgeEarned: Bool

        public init(
            mealSaved: Bool = false,
            allMacrosGood: Bool = false,
            streakMilestone: Bool = false,
            phaseCompleted: Bool = false,
            badgeEarned: Bool = false
        ) {
            self.mealSaved = mealSaved
            self.allMacrosGood = allMacrosGood
            self.streakMilestone = streakMilestone
            self.phaseCompleted = phaseCompleted
            self.badgeEarned = badgeEarned
        }
    }

    /// The loudest roar the event earns: triple for a phase completed or a badge, double for
    /// all macros at 70 % or a streak milestone, single for a saved meal; nil for nothing.
    public static func level(for event: Event) -> Roar? {
        if event.phaseCompleted || event.badgeEarned { return .triple }
        if event.allMacrosGood || event.streakMilestone { return .double }
        if event.mealSaved { return .single }
        return nil
    }
}
