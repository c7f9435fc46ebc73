import Foundation

/// What the surfaces show of a day in recovery mode (docs/rules.md §8): today's meals against the
/// eating moments — regularity, not amounts. It holds no calorie, macro, weight, target,
/// streak count or point, so a surface that renders only this value cannot leak one.
public struct RecoveryDay: Hashable, Sendable {
    /// The local date recovery mode was turned on.
    public let since: LocalDate
    /// Each eating moment of the day with what was eaten at it.
    public let moments: [MomentMeals]
    /// Today's mindful meals, in the order they were eaten.
    public let mindfulMeals: [MindfulMealEntry]

    /// One eating moment and the names of the meals (mindful or not) eaten at it.
    public struct MomentMeals: Hashable, Sendable {
        public let moment: EatingMoment
        /// What was eaten, by name, in the order it was eaten.
        public let names: [String]
        /// The moment's time has come (it is now at or after it).
        public let reached: Bool

        public var hadMeal: Bool { !names.isEmpty }
    }

    /// Groups today's meals and mindful meals by the moment they belong to (their own moment,
    /// else the nearest by time, as the dashboard groups meals).
    public init(since: LocalDate, window: EatingWindow, meals: [MealEntry], mindfulMeals: [MindfulMealEntry], now: TimeOfDay) {
        self.since = since
        self.mindfulMeals = mindfulMeals.sorted { $0.localTime < $1.localTime }
        let eaten: [(moment: Int, time: TimeOfDay, name: String)] =
            meals.map { (window.moment(of: $0), $0.localTime, $0.name) }
            + mindfulMeals.map { (window.moment(of: $0), $0.localTime, $0.name) }
        moments = window.eatingMoments.map { moment in
            let names = eaten.filter { $0.moment == moment.number }.sorted { $0.time < $1.time }.map(\.name)
            return MomentMeals(moment: moment, names: names, reached: moment.time <= now)
        }
    }

    /// Whether anything was eaten today.
    public var anythingLogged: Bool { moments.contains(where: \.hadMeal) }

    /// Recovery mode started today.
    public func startedOn(_ date: LocalDate) -> Bool { since == date }
}
