import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// Logs a meal; `entry` was validated when it was made. Records `meal_logged`.
    @discardableResult
    public func logMeal(_ entry: MealEntry, source: AnalyticsEvent.MealSource = .manual, food: FoodPortion? = nil,
                        id: UUID = UUID()) throws -> Meal {
        try logMeals([(entry, food)], source: source, ids: [id])[0]
    }

    /// Logs several meals in one transaction: all of them or none.
    @discardableResult
    public func logMeals(_ meals: [(MealEntry, FoodPortion?)], source: AnalyticsEvent.MealSource,
                         ids: [UUID]? = nil) throws -> [Meal] {
        let now = clock.now()
        return try writer.write { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            return try meals.enumerated().map { index, meal in
                let (entry, food) = meal
                var record = MealRecord(id: ids?[index] ?? UUID(), entry: entry, createdAt: now)
                record.foodID = food?.foodID
                record.portionG = food?.grams
                let saved = try Outbox.save(record, db, now: now)
                let outside = !settings.profile.eatingWindow.contains(entry.localTime)
                try recordEvent(.mealLogged(hasMacros: entry.hasMacros, source: source, outsideWindow: outside), db, now: now,
                                timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt)
                return Meal(id: saved.id, entry: entry)
            }
        }
    }

    /// Replaces a meal's values. Records `meal_edited`.
    @discardableResult
    public func editMeal(_ id: UUID, to entry: MealEntry) throws -> Meal {
        let now = clock.now()
        return try writer.write { db in
            guard let existing = try MealRecord.fetchOne(db, key: id), !existing.deleted else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            var record = MealRecord(id: id, entry: entry, createdAt: now)
            record.createdAt = existing.createdAt
            // the food it came from stays (recent foods, log again)
            record.foodID = existing.foodID
            record.portionG = existing.portionG
            _ = try Outbox.save(record, db, now: now)
            try recordEvent(.mealEdited, db, now: now, timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt)
            return Meal(id: id, entry: entry)
        }
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
            try recordEvent(.mealLogged(hasMacros: meal.entry.hasMacros, source: .undo, outsideWindow: false), db, now: now,
                            timeZone: timeZone)
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
            let rows = try Row.fetchAll(db, sql: """
                SELECT local_date, sum(kcal) AS kcal FROM meal_logs
                WHERE deleted = 0 AND local_date BETWEEN ? AND ? GROUP BY local_date
                """, arguments: [first.iso, last.iso])
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
public struct FoodPortion: Hashable, Sendable {
    public let foodID: String
    public let grams: Double

    public init(foodID: String, grams: Double) {
        self.foodID = foodID
        self.grams = grams
    }
}
