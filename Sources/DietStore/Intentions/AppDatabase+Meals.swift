import DietCore
import FoodKit
import Foundation
import GRDB
import SyncProtocol

extension AppDatabase {
    /// Logs a meal; `entry` was validated when it was made. Records `meal_logged`. With an `id`
    /// that already exists, nothing changes (see `logMeals`).
    @discardableResult
    public func logMeal(
        _ entry: MealEntry,
        source: AnalyticsEvent.MealSource = .manual,
        food: FoodPortion? = nil,
        recipe: RecipeServings? = nil,
        id: UUID = UUID()
    ) throws -> Meal {
        try logMeals([(entry, food)], source: source, ids: [id], recipes: [recipe])[0]
    }

    /// Logs several meals in one transaction: all of them or none.
    ///
    /// `ids` are the meals' ids, made by the client (a phone that logged offline). When any of
    /// them already exists — even as a deleted meal — the call is a replay of a write whose
    /// answer was lost: nothing is written, no event is recorded, a deleted meal stays deleted,
    /// and the result is the meals as stored (a deleted one included, with its last values).
    @discardableResult
    public func logMeals(
        _ meals: [(MealEntry, FoodPortion?)],
        source: AnalyticsEvent.MealSource,
        ids: [UUID]? = nil,
        recipes: [RecipeServings?]? = nil
    ) throws -> [Meal] {
        let now = clock.now()
        return try writer.write { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            if let ids, let stored = try Self.storedMeals(ids, db) { return stored }
            return try meals.enumerated().map { index, meal in
                let (entry, food) = meal
                var record = MealRecord(id: ids?[index] ?? UUID(), entry: entry, createdAt: now)
                record.foodID = food?.foodID
                record.portionG = food?.grams
                let recipe = recipes.flatMap { $0.indices.contains(index) ? $0[index] : nil }
                record.recipeID = recipe?.recipeID
                record.recipeServings = recipe?.servings
                let saved = try Outbox.save(record, db, now: now)
                let outside = !settings.profile.eatingWindow.contains(entry.localTime)
                try recordEvent(
                    .mealLogged(hasMacros: entry.hasMacros, source: source, outsideWindow: outside),
                    db,
                    now: now,
                    timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt
                )
                return Meal(id: saved.id, entry: entry)
            }
        }
    }

    /// The meals of `ids` as stored (deleted ones too) when any of them exists; nil when none does.
    static func storedMeals(_ ids: [UUID], _ db: Database) throws -> [Meal]? {
        let records = try MealRecord.fetchAll(db, keys: ids)
        guard !records.isEmpty else { return nil }
        return records.compactMap(\.meal)
    }

    /// The ids of `count` meals logged together under one client-made id: that id first, then
    /// ids derived from it, the same on every replay.
    public static func mealIDs(for clientID: UUID, count: Int) -> [UUID] {
        (0..<count).map { $0 == 0 ? clientID : NaturalKey.id(table: .mealLogs, key: "\(clientID.uuidString)/\($0)") }
    }

    /// Whether a meal with `id` was ever logged here (living or deleted).
    public func mealExists(_ id: UUID) throws -> Bool {
        try reader.read { db in try MealRecord.exists(db, key: id) }
    }

    /// "Log again" with the client's id for the copy: when `newID` exists already (a replay),
    /// nothing changes and the stored copy is returned, even if the original was deleted since.
    @discardableResult
    public func logAgain(_ id: UUID, as newID: UUID, at instant: Date? = nil, timeZone: TimeZone) throws -> Meal {
        let stored = try reader.read { db in try MealRecord.fetchOne(db, key: newID) }
        if let stored, let meal = stored.meal { return meal }
        let when = instant ?? clock.now()
        let record = try reader.read { db -> MealRecord in
            guard let record = try MealRecord.fetchOne(db, key: id), !record.deleted else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            return record
        }
        guard let entry = record.meal?.entry else { throw StoreError.notFound(table: "meal_logs", id: id.uuidString) }
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
        let food = record.foodID.flatMap { food in record.portionG.map { FoodPortion(foodID: food, grams: $0) } }
        return try logMeal(copy, source: .copy, food: food, recipe: RecipeServings(of: record), id: newID)
    }

    /// Replaces a meal's values. Records `meal_edited`. With `grams`, the meal (one logged from
    /// a food) now holds that amount of its food: the caller computed `entry`'s values from it
    /// (`mealFood(_:language:)`); a meal from no food is refused (`StoreError.unknownFood`).
    @discardableResult
    public func editMeal(_ id: UUID, to entry: MealEntry, grams: Double? = nil) throws -> Meal {
        let now = clock.now()
        return try writer.write { db in
            guard let existing = try MealRecord.fetchOne(db, key: id), !existing.deleted else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            var record = MealRecord(id: id, entry: entry, createdAt: now)
            record.createdAt = existing.createdAt
            // the food it came from stays (recent foods, log again), with the amount now eaten
            record.foodID = existing.foodID
            record.portionG = existing.portionG
            record.recipeID = existing.recipeID
            record.recipeServings = existing.recipeServings
            if let grams {
                guard existing.foodID != nil else { throw StoreError.unknownFood(id.uuidString) }
                record.portionG = grams
            }
            _ = try Outbox.save(record, db, now: now)
            try recordEvent(.mealEdited, db, now: now, timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt)
            return Meal(id: id, entry: entry)
        }
    }

    /// The food a meal was logged from and the grams of it, when it came from a food that still
    /// exists (a bundled one, or one of the user's own foods not deleted); nil otherwise.
    public func mealFood(_ id: UUID, language: Language) throws -> (food: Food, grams: Double)? {
        guard let record = try reader.read({ db in try MealRecord.fetchOne(db, key: id) }), !record.deleted,
            let foodID = record.foodID, let grams = record.portionG
        else { return nil }
        return try food(id: foodID, language: language).map { ($0, grams) }
    }

    /// Deletes a meal as a tombstone, so the deletion syncs. Records `meal_deleted`.
    public func deleteMeal(_ id: UUID, timeZone: TimeZone) throws {
        let now = clock.now()
        try writer.write { db in
            guard var meal = try MealRecord.fetchOne(db, key: id), !meal.deleted else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            meal.deleted = true
            _ = try Outbox.save(meal, db, now: now)
            try recordEvent(.mealDeleted, db, now: now, timeZone: timeZone)
        }
    }

    /// Brings a deleted meal back (the "Undo" of a deletion), as a new change so it syncs.
    /// Records `meal_logged` with the source `undo`.
    @discardableResult
    public func restoreMeal(_ id: UUID, timeZone: TimeZone) throws -> Meal {
        let now = clock.now()
        return try writer.write { db in
            guard var record = try MealRecord.fetchOne(db, key: id), record.deleted, let meal = record.meal else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            record.deleted = false
            _ = try Outbox.save(record, db, now: now)
            try recordEvent(
                .mealLogged(hasMacros: meal.entry.hasMacros, source: .undo, outsideWindow: false),
                db,
                now: now,
                timeZone: timeZone
            )
            return meal
        }
    }

    /// The meals of `date`, in the order they were eaten.
    public func meals(on date: LocalDate) throws -> [Meal] {
        try reader.read { db in try MealRecord.all().on(date).fetchAll(db).compactMap(\.meal) }
    }

    /// The meals whose id starts with `prefix` (case ignored), for short ids typed by hand:
    /// the living ones, or with `deleted` the deleted ones (to restore).
    public func meals(idPrefix prefix: String, deleted: Bool = false) throws -> [Meal] {
        let cleaned = prefix.uppercased().filter { $0.isHexDigit || $0 == "-" }
        guard cleaned.count >= 4, cleaned.count == prefix.count else { return [] }
        return try reader.read { db in
            try MealRecord.filter(MealRecord.Columns.deleted == deleted).filter(sql: "id LIKE ?", arguments: [cleaned + "%"])
                .fetchAll(db).compactMap(\.meal)
        }
    }

    /// The local dates from `first` through `last` with their meal totals (kcal and count).
    public func dailyIntake(from first: LocalDate, through last: LocalDate) throws -> [LocalDate: Int] {
        try reader.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT local_date, sum(kcal) AS kcal FROM meal_logs
                    WHERE deleted = 0 AND local_date BETWEEN ? AND ? GROUP BY local_date
                    """,
                arguments: [first.iso, last.iso]
            )
            var result: [LocalDate: Int] = [:]
            for row in rows {
                if let date = LocalDate(iso: row["local_date"]) { result[date] = row["kcal"] }
            }
            return result
        }
    }

    /// One meal by id, or nil.
    public func meal(_ id: UUID) throws -> Meal? {
        try reader.read { db in try MealRecord.fetchOne(db, key: id).flatMap { $0.deleted ? nil : $0.meal } }
    }
}

/// The food and grams a meal was logged from.
/// The recipe a meal was logged from and how many of its servings (docs/rules.md §6).
public struct RecipeServings: Hashable, Sendable {
    public let recipeID: String
    public let servings: Double

    public init(recipeID: String, servings: Double) {
        self.recipeID = recipeID
        self.servings = servings
    }

    init?(of record: MealRecord) {
        guard let id = record.recipeID, let servings = record.recipeServings else { return nil }
        self.init(recipeID: id, servings: servings)
    }
}

public struct FoodPortion: Hashable, Sendable {
    public let foodID: String
    public let grams: Double

    public init(foodID: String, grams: Double) {
        self.foodID = foodID
        self.grams = grams
    }
}
