import DietCore
import FoodKit
import Foundation

extension AppDatabase {
    /// Logs `grams` of a food (the bundled database or the user's own) as one meal named after
    /// it (or `name`), at `instant` in eating `moment`.
    @discardableResult
    public func logFood(_ foodID: String, grams: Double, name: String? = nil, at instant: Date, moment: Int?,
                        timeZone: TimeZone, language: Language, source: AnalyticsEvent.MealSource) throws -> Meal {
        try logFoods([FoodAmount(foodID: foodID, grams: grams)], names: [name], at: instant, moment: moment, timeZone: timeZone,
                     language: language, source: source)[0]
    }

    /// Logs several foods as meals in one transaction: all of them or none (a meal in words
    /// after the person corrected it). Every amount is checked (1–5,000 g) and every food must
    /// exist before anything is written.
    @discardableResult
    public func logFoods(_ items: [FoodAmount], names: [String?]? = nil, at instant: Date, moment: Int?, timeZone: TimeZone,
                         language: Language, source: AnalyticsEvent.MealSource) throws -> [Meal] {
        let meals = try items.enumerated().map { index, item -> (MealEntry, FoodPortion?) in
            let grams = try Food.checkedGrams(item.grams)
            guard let food = try food(id: item.foodID, language: language) else { throw StoreError.unknownFood(item.foodID) }
            let name = names?[index].flatMap { $0.isEmpty ? nil : $0 } ?? food.name
            let entry = try food.per100g.scaled(toGrams: grams).mealEntry(named: name, at: instant, in: timeZone, moment: moment)
            return (entry, FoodPortion(foodID: food.id, grams: grams))
        }
        return try logMeals(meals, source: source)
    }
}
