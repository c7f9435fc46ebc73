import DietCore
import Foundation
import GRDB
import SyncProtocol

/// Mindful meals (docs/rules.md §8): logged in recovery mode, synced and exported like every meal.
///
/// They record no analytics event: the events feed points, and recovery mode counts nothing.
extension AppDatabase {
    /// Logs a mindful meal; `entry` was validated when it was made. With an `id` that already
    /// exists (living or deleted) the call is a replay: nothing changes and the stored meal is
    /// returned, so a phone that logged offline saves it exactly once.
    @discardableResult
    public func logMindfulMeal(_ entry: MindfulMealEntry, id: UUID = UUID()) throws -> MindfulMeal {
        let now = clock.now()
        return try writer.write { db in
            guard try Self.settings(db) != nil else { throw StoreError.notOnboarded }
            if let stored = try MindfulMealRecord.fetchOne(db, key: id), let meal = stored.meal { return meal }
            let saved = try Outbox.save(MindfulMealRecord(id: id, entry: entry, createdAt: now), db, now: now)
            return MindfulMeal(id: saved.id, entry: entry)
        }
    }

    /// Replaces a mindful meal's values; it keeps its id and when it was first logged.
    @discardableResult
    public func editMindfulMeal(_ id: UUID, to entry: MindfulMealEntry) throws -> MindfulMeal {
        let now = clock.now()
        return try writer.write { db in
            guard let existing = try MindfulMealRecord.fetchOne(db, key: id), !existing.deleted else {
                throw StoreError.notFound(table: MindfulMealRecord.databaseTableName, id: id.uuidString)
            }
            var record = MindfulMealRecord(id: id, entry: entry, createdAt: now)
            record.createdAt = existing.createdAt
            _ = try Outbox.save(record, db, now: now)
            return MindfulMeal(id: id, entry: entry)
        }
    }

    /// Deletes a mindful meal as a tombstone, so the deletion syncs.
    public func deleteMindfulMeal(_ id: UUID) throws {
        let now = clock.now()
        try writer.write { db in
            guard var record = try MindfulMealRecord.fetchOne(db, key: id), !record.deleted else {
                throw StoreError.notFound(table: MindfulMealRecord.databaseTableName, id: id.uuidString)
            }
            record.deleted = true
            _ = try Outbox.save(record, db, now: now)
        }
    }

    /// Brings a deleted mindful meal back (the "Undo" of a deletion), as a new change so it syncs.
    @discardableResult
    public func restoreMindfulMeal(_ id: UUID) throws -> MindfulMeal {
        let now = clock.now()
        return try writer.write { db in
            guard var record = try MindfulMealRecord.fetchOne(db, key: id), record.deleted, let meal = record.meal else {
                throw StoreError.notFound(table: MindfulMealRecord.databaseTableName, id: id.uuidString)
            }
            record.deleted = false
            _ = try Outbox.save(record, db, now: now)
            return meal
        }
    }

    /// The mindful meals of `date`, in the order they were eaten.
    public func mindfulMeals(on date: LocalDate) throws -> [MindfulMeal] {
        try reader.read { db in try MindfulMealRecord.all().on(date).fetchAll(db).compactMap(\.meal) }
    }

    /// The mindful meals from `first` through `last`, by date and time.
    public func mindfulMeals(from first: LocalDate, through last: LocalDate) throws -> [MindfulMeal] {
        try reader.read { db in
            try MindfulMealRecord.all().alive()
                .filter(MindfulMealRecord.Columns.localDate >= first.iso && MindfulMealRecord.Columns.localDate <= last.iso)
                .order(MindfulMealRecord.Columns.localDate, MindfulMealRecord.Columns.localTime)
                .fetchAll(db).compactMap(\.meal)
        }
    }

    /// One living mindful meal by id, or nil.
    public func mindfulMeal(_ id: UUID) throws -> MindfulMeal? {
        try reader.read { db in try MindfulMealRecord.fetchOne(db, key: id).flatMap { $0.deleted ? nil : $0.meal } }
    }

    /// The mindful meals whose id starts with `prefix` (case ignored, at least 4 characters),
    /// for short ids typed by hand: the living ones, or with `deleted` the deleted ones.
    public func mindfulMeals(idPrefix prefix: String, deleted: Bool = false) throws -> [MindfulMeal] {
        let cleaned = prefix.uppercased().filter { $0.isHexDigit || $0 == "-" }
        guard cleaned.count >= 4, cleaned.count == prefix.count else { return [] }
        return try reader.read { db in
            try MindfulMealRecord.filter(MindfulMealRecord.Columns.deleted == deleted)
                .filter(sql: "id LIKE ?", arguments: [cleaned + "%"]).fetchAll(db).compactMap(\.meal)
        }
    }
}
