import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// Logs a meal; `entry` was validated when it was made. Records `meal_logged`.
    @discardableResult
    public func logMeal(_ entry: MealEntry, id: UUID = UUID()) throws -> Meal {
        let now = clock.now()
        return try writer.write { db in
            guard try Self.settings(db) != nil else { throw StoreError.notOnboarded }
            let record = try Outbox.save(MealRecord(id: id, entry: entry, createdAt: now), db, now: now)
            try recordEvent("meal_logged", ["has_macros": .bool(entry.hasMacros)], db, now: now,
                            timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt)
            return Meal(id: record.id, entry: entry)
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
            _ = try Outbox.save(record, db, now: now)
            try recordEvent("meal_edited", [:], db, now: now,
                            timeZone: TimeZone(identifier: entry.timeZoneIdentifier) ?? .gmt)
            return Meal(id: id, entry: entry)
        }
    }

    /// Deletes a meal as a tombstone, so the deletion syncs. Records `meal_deleted`.
    public func deleteMeal(_ id: UUID, timeZone: TimeZone) throws {
        let now = clock.now()
        try writer.write { db in
            guard var record = try MealRecord.fetchOne(db, key: id), !record.deleted else {
                throw StoreError.notFound(table: "meal_logs", id: id.uuidString)
            }
            record.deleted = true
            _ = try Outbox.save(record, db, now: now)
            try recordEvent("meal_deleted", [:], db, now: now, timeZone: timeZone)
        }
    }

    /// The meals of `date`, in the order they were eaten.
    public func meals(on date: LocalDate) throws -> [Meal] {
        try reader.read { db in try MealRecord.all().on(date).fetchAll(db).compactMap(\.meal) }
    }

    /// One meal by id, or nil.
    public func meal(_ id: UUID) throws -> Meal? {
        try reader.read { db in try MealRecord.fetchOne(db, key: id).flatMap { $0.deleted ? nil : $0.meal } }
    }
}
