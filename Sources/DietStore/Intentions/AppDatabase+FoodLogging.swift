import DietCore
import FoodKit
import Foundation

extension AppDatabase {
    /// Logs `grams` of a food (the bundled database or the user's own) as one meal named after
    /// it (or `name`), at `instant` in eating `moment`; with `id`, the meal's client-made id
    /// (an existing one changes nothing: see `logMeals`).
    @discardableResult
    public func logFood(
        _ foodID: String,
        grams: Double,
        name: String? = nil,
        at instant: Date,
        moment: Int?,
        timeZone: TimeZone,
        language: Language,
        source: AnalyticsEvent.MealSource,
        id: UUID? = nil
    ) throws -> Meal {
        try logFoods(
            [FoodAmount(foodID: foodID, grams: grams)],
            names: [name],
            at: instant,
            moment: moment,
            timeZone: timeZone,
            language: language,
            source: source,
            ids: id.map { [$0] }
        )[0]
    }

    /// Logs several foods as meals in one transaction: all of them or none (a meal in words
    /// after the person corrected it). Every amount is checked (1–5,000 g) and every food must
    /// exist before anything is written. `ids`, one per item, are client-made ids (see `logMeals`).
    @discardableResult
    public func logFoods(
        _ items: [FoodAmount],
        names: [String?]? = nil,
        at instant: Date,
        moment: Int?,
        timeZone: TimeZone,
        language: Language,
        source: AnalyticsEvent.MealSource,
        ids: [UUID]? = nil
    ) throws -> [Meal] {
        // a replay answers as before even when a food has gone since
        if let ids, let stored = try reader.read({ db in try Self.storedMeals(ids, db) }) { return stored }
        let meals = try items.enumerated().map { index, item -> (MealEntry, FoodPortion?) in
            let grams = try Food.checkedGrams(item.grams)
            guard let food = try food(id: item.foodID, language: language) else { throw StoreError.unknownFood(item.foodID) }
            let name = names?[index].flatMap { $0.isEmpty ? nil : $0 } ?? food.name
            let entry = try food.per100g.scaled(toGrams: grams).mealEntry(named: name, at: instant, in: timeZone, moment: moment)
            return (entry, FoodPortion(foodID: food.id, grams: grams))
        }
        return try logMeals(meals, source: source, ids: ids)
    }
}
