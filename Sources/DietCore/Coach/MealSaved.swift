/// What a person sees right after saving meals (docs/rules.md §4–5): the toast and
/// the roar the day has earned. One rule for every surface.
public struct MealSaved: Hashable, Sendable {
    public enum Toast: String, Sendable {
        /// "Meal saved!"
        case mealSaved
        /// "N meals saved!"
        case mealsSaved
        /// The first meal of the day lit the streak's flame.
        case streakLit
        /// The save earned a badge: "New badge: …" (it outranks the other toasts).
        case badgeEarned
    }

    public let toast: Toast
    /// Single for a meal; double when every macro is good or at a streak milestone; triple
    /// when the save earned a badge.
    public let roar: Roar
    /// The badges this save earned, to announce (empty in recovery mode).
    public let newBadges: [Badge]

    /// - Parameters:
    ///   - report: today's report after the save.
    ///   - count: how many meals were saved together.
    ///   - streakWasLit: whether the flame was lit before the save.
    ///   - newBadges: the badges the save earned (`AppDatabase.claimNewBadges`).
    public init(report: DayReport, count: Int, streakWasLit: Bool, newBadges: [Badge] = []) {
        self.newBadges = newBadges
        roar =
            Roar.level(
                for: .init(
                    mealSaved: true,
                    allMacrosGood: report.allMacrosGood,
                    streakMilestone: report.streak.milestoneToday != nil,
                    badgeEarned: !newBadges.isEmpty
                )
            ) ?? .single
        toast =
            !newBadges.isEmpty
            ? .badgeEarned
            : !streakWasLit && report.streak.isLit ? .streakLit : count == 1 ? .mealSaved : .mealsSaved
    }
}
