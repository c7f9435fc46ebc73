/// What was eaten on one local date (docs/rules.md §4–5).
public struct DailyTotals: Hashable, Sendable, Codable {
    public let date: LocalDate
    public let kcal: Int
    /// Grams; a meal without a macro adds nothing to it.
    public let proteinG: Double
    public let carbsG: Double
    public let fatG: Double
    public let fiberG: Double
    public let mealCount: Int
    /// Meals logged without all three macros (they get a gentle nudge).
    public let mealsWithoutMacros: Int

    /// Sums the meals of `date`; meals of other dates are ignored.
    public init(date: LocalDate, meals: [MealEntry]) {
        let today = meals.filter { $0.localDate == date }
        self.date = date
        kcal = today.reduce(0) { $0 + $1.kcal }
        proteinG = Self.sum(today.map(\.proteinG))
        carbsG = Self.sum(today.map(\.carbsG))
        fatG = Self.sum(today.map(\.fatG))
        fiberG = Self.sum(today.map(\.fiberG))
        mealCount = today.count
        mealsWithoutMacros = today.filter { !$0.hasMacros }.count
    }

    /// Sums in tenths of a gram, so 0.1 + 0.2 is 0.3.
    private static func sum(_ values: [Double?]) -> Double {
        Double(values.reduce(0) { $0 + Int((($1 ?? 0) * 10).rounded()) }) / 10
    }

    /// Whether anything was logged: with nothing, the smileys stay neutral.
    public var isEmpty: Bool { mealCount == 0 }

    /// Energy from each macro: 4 kcal per g protein and carbohydrate, 9 per g fat.
    public var proteinKcal: Double { proteinG * Energy.kcalPerGramProtein }
    public var carbsKcal: Double { carbsG * Energy.kcalPerGramCarbs }
    public var fatKcal: Double { fatG * Energy.kcalPerGramFat }

    enum CodingKeys: String, CodingKey {
        case date, kcal
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case fiberG = "fiber_g"
        case mealCount = "meal_count"
        case mealsWithoutMacros = "meals_without_macros"
    }
}
