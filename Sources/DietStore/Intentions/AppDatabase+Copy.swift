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

    /// Copies the meals of `source` to `target`, keeping each local time and moment, as one batch
    /// (all or nothing; docs/rules.md §4). Into today only those up to now unless `later` asks
    /// for the rest too: a copy at 07:20 never logs lunch and dinner ahead (a later day named as
    /// the target is asked for). `only` picks which
    /// of the source's meals (nil: all). The copies take the ids of `batch` (`mealIDs(for:)`), so
    /// `undoCopy` removes them in one step.
    @discardableResult
    public func copyDay(
        from source: LocalDate,
        to target: LocalDate,
        only: Set<UUID>? = nil,
        later: Bool = false,
        batch: UUID = UUID(),
        timeZone: TimeZone
    ) throws -> [Meal] {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        let originals = try reader.read { db in
            try MealRecord.all().on(source).fetchAll(db).compactMap { record in
                record.meal.flatMap { meal in
                    only.map { $0.contains(meal.id) } ?? true ? (meal.entry, Self.portion(of: record), RecipeServings(of: record)) : nil
                }
            }
        }
        var recipes: [RecipeServings?] = []
        let copies = try originals.compactMap { entry, food, recipe -> (MealEntry, FoodPortion?)? in
            let instant = target.instant(at: entry.localTime, in: timeZone)
            if target == today && instant > now && !later { return nil }
            recipes.append(recipe)
            return (
                try MealEntry(
                    name: entry.name,
                    kcal: entry.kcal,
                    proteinG: entry.proteinG,
                    carbsG: entry.carbsG,
                    fatG: entry.fatG,
                    fiberG: entry.fiberG,
                    at: instant,
                    in: timeZone,
                    moment: entry.moment
                ), food
            )
        }
        guard !copies.isEmpty else { return [] }
        return try logMeals(copies, source: .copy, ids: Self.mealIDs(for: batch, count: copies.count), recipes: recipes)
    }

    /// The most meals one copy holds, for finding a batch's meals again.
    public static let copyLimit = 200

    /// Undoes the copy `batch`: its meals still there are deleted together (tombstones, so the
    /// deletion syncs); the number deleted.
    @discardableResult
    public func undoCopy(_ batch: UUID) throws -> Int {
        let now = clock.now()
        let ids = Self.mealIDs(for: batch, count: Self.copyLimit)
        return try writer.write { db in
            // one read of the batch's ids, not one per id
            let living = try MealRecord.fetchAll(db, keys: ids).filter { !$0.deleted }
            for var meal in living {
                meal.deleted = true
                _ = try Outbox.save(meal, db, now: now)
            }
            return living.count
        }
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
