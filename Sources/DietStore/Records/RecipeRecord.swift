import DietCore
import FoodKit
import Foundation
import GRDB
import SyncProtocol

/// A row of `recipes`.
struct RecipeRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.recipes

    var id: UUID
    var name: String
    var items: String
    var servings: Double
    var createdAt: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, items, servings, deleted
        case createdAt = "created_at"
        case updatedHLC = "updated_hlc"
    }

    var recipe: Recipe? {
        guard let items = try? JSONDecoder().decode([Recipe.Item].self, from: Data(items.utf8)) else { return nil }
        return Recipe(restoring: id.uuidString.lowercased(), name: name, items: items, servings: servings)
    }

    var unreadableReason: String? { recipe == nil ? "the recipe's items cannot be read" : nil }
}

extension AppDatabase {
    /// Saves a recipe; every item must name a known food.
    @discardableResult
    public func addRecipe(name: String, items: [Recipe.Item], servings: Double, id: UUID = UUID()) throws -> Recipe {
        let recipe = try Recipe(id: id.uuidString.lowercased(), name: name, items: items, servings: servings)
        for item in items where try food(id: item.foodID, language: .en) == nil {
            throw StoreError.unknownFood(item.foodID)
        }
        let now = clock.now()
        let json = try String(decoding: JSONEncoder.store.encode(items), as: UTF8.self)
        try writer.write { db in
            _ = try Outbox.save(
                RecipeRecord(
                    id: id,
                    name: recipe.name,
                    items: json,
                    servings: servings,
                    createdAt: StoreFormat.instant(now),
                    updatedHLC: "",
                    deleted: false
                ),
                db,
                now: now
            )
        }
        return recipe
    }

    /// Replaces a recipe's name, items and servings (same checks as `addRecipe`).
    @discardableResult
    public func updateRecipe(id: String, name: String, items: [Recipe.Item], servings: Double) throws -> Recipe {
        guard let existing = try recipe(id), let uuid = UUID(uuidString: existing.id) else { throw StoreError.notFound(table: "recipes", id: id) }
        let recipe = try Recipe(id: existing.id, name: name, items: items, servings: servings)
        for item in items where try food(id: item.foodID, language: .en) == nil {
            throw StoreError.unknownFood(item.foodID)
        }
        let now = clock.now()
        let json = try String(decoding: JSONEncoder.store.encode(items), as: UTF8.self)
        try writer.write { db in
            guard var record = try RecipeRecord.fetchOne(db, key: uuid), !record.deleted else {
                throw StoreError.notFound(table: "recipes", id: id)
            }
            record.name = recipe.name
            record.items = json
            record.servings = servings
            _ = try Outbox.save(record, db, now: now)
        }
        return recipe
    }

    /// Deletes a recipe (a tombstone, so it syncs); meals logged from it stay.
    public func deleteRecipe(_ id: String) throws {
        guard let existing = try recipe(id), let uuid = UUID(uuidString: existing.id) else { throw StoreError.notFound(table: "recipes", id: id) }
        let now = clock.now()
        try writer.write { db in
            guard var record = try RecipeRecord.fetchOne(db, key: uuid), !record.deleted else {
                throw StoreError.notFound(table: "recipes", id: id)
            }
            record.deleted = true
            _ = try Outbox.save(record, db, now: now)
        }
    }

    /// Every recipe, by name.
    public func recipes() throws -> [Recipe] {
        try reader.read { db in
            try RecipeRecord.filter(sql: "deleted = 0").order(sql: "name COLLATE NOCASE").fetchAll(db).compactMap(\.recipe)
        }
    }

    /// A recipe by id or its first characters (4 or more), when unambiguous.
    public func recipe(_ id: String) throws -> Recipe? {
        let prefix = id.uppercased()
        guard prefix.count >= 4, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        return try reader.read { db in
            let matches = try RecipeRecord.filter(sql: "deleted = 0 AND id LIKE ?", arguments: [prefix + "%"]).limit(2).fetchAll(db)
            return matches.count == 1 ? matches[0].recipe : nil
        }
    }

    /// One serving of `recipe`: grams and nutrients, from its foods in `language`.
    public func serving(of recipe: Recipe, language: Language) throws -> (grams: Double, nutrients: Nutrients) {
        var foods: [String: Food] = [:]
        for item in recipe.items {
            foods[item.foodID] = try food(id: item.foodID, language: language)
        }
        return recipe.perServing(foods: foods)
    }

    /// `servings` (0.1–20) of `recipe` as a meal, named after the recipe unless `name` is given.
    /// The recipes logged most recently (at most `limit`), each with the servings of its latest
    /// meal; recipes since deleted are left out.
    public func recentRecipes(limit: Int) throws -> [(recipe: Recipe, servings: Double)] {
        let rows = try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT recipe_id, recipe_servings FROM meal_logs m
                    WHERE deleted = 0 AND recipe_id IS NOT NULL AND recipe_servings IS NOT NULL
                      AND logged_at = (SELECT max(logged_at) FROM meal_logs WHERE deleted = 0 AND recipe_id = m.recipe_id)
                    GROUP BY recipe_id ORDER BY max(logged_at) DESC LIMIT ?
                    """,
                arguments: [limit * 2]
            )
        }
        let recipes = Dictionary(try self.recipes().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Array(
            rows.compactMap { row -> (recipe: Recipe, servings: Double)? in
                guard let recipe = recipes[row["recipe_id"] as String? ?? ""], let servings = row["recipe_servings"] as Double? else { return nil }
                return (recipe, servings)
            }
            .prefix(limit)
        )
    }

    public func mealEntry(
        servings: Double,
        of recipe: Recipe,
        named name: String? = nil,
        at instant: Date,
        in timeZone: TimeZone,
        language: Language
    ) throws -> MealEntry {
        guard servings.isFinite, Recipe.servingsPerMeal.contains(servings) else {
            throw ValidationError(
                field: .servings,
                allowed: .range(
                    min: Recipe.servingsPerMeal.lowerBound,
                    max: Recipe.servingsPerMeal.upperBound,
                    digits: 1,
                    unit: nil
                ),
                received: servings.formatted()
            )
        }
        // one serving's nutrients are given as if per 100 g: scaling to 100 g × servings multiplies them
        let nutrients = try serving(of: recipe, language: language).nutrients.scaled(toGrams: 100 * servings)
        return try nutrients.mealEntry(named: name ?? recipe.name, at: instant, in: timeZone)
    }
}
