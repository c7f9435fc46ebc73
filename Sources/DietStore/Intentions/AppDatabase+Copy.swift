import DietCore
import FoodKit
import Foundation
import GRDB

/// A food the user logs often or lately, with how often, when last and how much last.
public struct UsedFood: Hashable, Sendable {
    public let foodID: String
    public let name: String
    public let uses: Int
    public let lastDate: LocalDate
    /// The amount last logged: a repeat food is logged again with it in one tap.
    public let lastGrams: Double
    /// The food itself (nil if it was deleted since), read with the list, so a caller showing
    /// the amount in the food's portions need not look each food up again.
    public let food: Food?
}

/// An amount of a food: what a meal in words or a portion form logs.
public struct FoodAmount: Hashable, Sendable {
    public let foodID: String
    public let grams: Double

    public init(foodID: String, grams: Double) {
        self.foodID = foodID
        self.grams = grams
    }
}

extension AppDatabase {
    /// Logs `meal` again at `instant` (now by default), as a new meal with the same values and food.
    @discardableResult
    public func logAgain(_ id: UUID, at instant: Date? = nil, timeZone: TimeZone) throws -> Meal {
        let when = instant ?? clock.now()
        let (entry, food) = try reader.read { db -> (MealEntry, FoodPortion?) in
            guard let record = try MealRecord.fetchOne(db, key: id), !record.deleted, let meal = record.meal else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            return (meal.entry, Self.portion(of: record))
        }
        let copy = try MealEntry(
            name: entry.name,
            kcal: entry.kcal,
            proteinG: entry.proteinG,
            carbsG: entry.carbsG,
            fatG: entry.fatG,
            fiberG: entry.fiberG,
            at: when,
            in: timeZone
        )
        return try logMeal(copy, source: .copy, food: food)
    }

    /// Copies every meal of `source` to `target`, keeping each local time: all or nothing.
    @discardableResult
    public func copyDay(from source: LocalDate, to target: LocalDate, timeZone: TimeZone) throws -> [Meal] {
        let originals = try reader.read { db in
            try MealRecord.all().on(source).fetchAll(db).compactMap { record in record.meal.map { ($0.entry, Self.portion(of: record)) } }
        }
        let copies = try originals.map { entry, food in
            (
                try MealEntry(
                    name: entry.name,
                    kcal: entry.kcal,
                    proteinG: entry.proteinG,
                    carbsG: entry.carbsG,
                    fatG: entry.fatG,
                    fiberG: entry.fiberG,
                    at: target.instant(at: entry.localTime, in: timeZone),
                    in: timeZone,
                    moment: entry.moment
                ), food
            )
        }
        return try logMeals(copies, source: .copy)
    }

    /// The foods logged most recently (`recent`) or most often (`frequent`), newest first.
    public func usedFoods(frequent: Bool, limit: Int = 10, language: Language) throws -> [UsedFood] {
        try reader.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT food_id, count(*) AS uses, max(local_date) AS last, max(created_at) AS latest,
                      (SELECT portion_g FROM meal_logs AS m WHERE m.deleted = 0 AND m.food_id = meal_logs.food_id
                       ORDER BY m.created_at DESC LIMIT 1) AS last_grams
                    FROM meal_logs
                    WHERE deleted = 0 AND food_id IS NOT NULL GROUP BY food_id
                    ORDER BY \(frequent ? "uses DESC, latest DESC" : "latest DESC") LIMIT ?
                    """,
                arguments: [limit]
            )
            return try rows.compactMap { row in
                let id: String = row["food_id"]
                let food =
                    try Int(id).flatMap { try FoodCatalog.food(db, id: $0, language: language) }
                    ?? CustomFoodRecord.fetchOne(db, key: id.uppercased())?.food
                guard let last = LocalDate(iso: row["last"]), let grams: Double = row["last_grams"], grams > 0 else { return nil }
                return UsedFood(foodID: id, name: food?.name ?? id, uses: row["uses"], lastDate: last, lastGrams: grams, food: food)
            }
        }
    }

    /// The amount of `foodID` logged most recently, nil if it never was.
    public func lastGrams(of foodID: String) throws -> Double? {
        try reader.read { db in
            try Double.fetchOne(
                db,
                sql: """
                    SELECT portion_g FROM meal_logs WHERE deleted = 0 AND food_id = ? AND portion_g IS NOT NULL
                    ORDER BY created_at DESC LIMIT 1
                    """,
                arguments: [foodID]
            )
        }
    }

    private static func portion(of record: MealRecord) -> FoodPortion? {
        guard let food = record.foodID, let grams = record.portionG else { return nil }
        return FoodPortion(foodID: food, grams: grams)
    }
}
