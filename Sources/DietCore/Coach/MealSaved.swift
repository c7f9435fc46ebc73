/// What a person sees right after saving meals (seed 002, journey 2; SPEC §5): the toast and
/// the roar the day has earned. One rule for every surface.
public struct MealSaved: Hashable, Sendable {
    public enum Toast: String, Sendable {
        /// "Meal saved!"
        case mealSaved
        /// "N meals saved!"
        case mealsSaved
        /// The first meal of the day lit the streak's flame.
        case streakLit
    }

    public let toast: Toast
    /// Single for a meal; double when every macro is good or at a streak milestone.
    public let roar: Roar

    /// - Parameters:
    ///   - report: today's report after the save.
    ///   - count: how many meals were saved together.
    ///   - streakWasLit: whether the flame was lit before the save.
    public init(report: DayReport, count: Int, streakWasLit: Bool) {
        roar = Roar.level(for: .init(mealSaved: true, allMacrosGood: MacroFeedback.allGood(report.macros),
                                     streakMilestone: report.streak.milestoneToday != nil)) ?? .single
        toast = !streakWasLit && report.streak.isLit ? .streakLit : count == 1 ? .mealSaved : .mealsSaved
    }
}
