import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A meal brought in from another app, with the id its import derived from the file (the
/// same on every re-import of that file).
public struct ImportedMeal: Hashable, Sendable {
    public let id: UUID
    public let entry: MealEntry

    public init(id: UUID, entry: MealEntry) {
        self.id = id
        self.entry = entry
    }
}

/// A day's weight brought in from another app: when it was measured decides which of two
/// weights of one day wins (the store's later-wins rule).
public struct ImportedWeight: Hashable, Sendable {
    public let entry: WeightEntry
    public let measuredAt: Date
    public let timeZone: TimeZone

    public init(entry: WeightEntry, measuredAt: Date, timeZone: TimeZone) {
        self.entry = entry
        self.measuredAt = measuredAt
        self.timeZone = timeZone
    }
}

/// What an import wrote, and what it found already there.
public struct ImportOutcome: Hashable, Sendable {
    /// Meals written now.
    public var mealsAdded = 0
    /// Meals whose id was already stored (an earlier import of the same file, even if deleted
    /// since): left as they are.
    public var mealsAlreadyThere = 0
    /// Days whose weight was written now.
    public var weightsAdded = 0
    /// Days whose stored weight was measured at or after the imported one: kept.
    public var weightsKept = 0

    public init() {}
}

extension AppDatabase {
    /// Writes imported meals and weights in ONE transaction, through the same records and
    /// outbox as logging them by hand, all of them or none, and records one `data_imported`
    /// event (`format`: the source, e.g. `apple_health`) rather than one per meal.
    ///
    /// A meal whose id exists (living or deleted) is left alone, so importing a file twice adds
    /// nothing twice and a meal deleted after an import does not come back. A weight replaces
    /// the day's stored one only when it was measured later (the rule of `logWeight`).
    @discardableResult
    public func importEntries(meals: [ImportedMeal], weights: [ImportedWeight], format: String, timeZone: TimeZone) throws -> ImportOutcome {
        let now = clock.now()
        return try writer.write { db in
            guard try Self.settings(db) != nil else { throw StoreError.notOnboarded }
            var outcome = ImportOutcome()
            for meal in meals {
                if try MealRecord.exists(db, key: meal.id) {
                    outcome.mealsAlreadyThere += 1
                    continue
                }
                _ = try Outbox.save(MealRecord(id: meal.id, entry: meal.entry, createdAt: now), db, now: now)
                outcome.mealsAdded += 1
            }
            for weight in weights {
                let stored = try WeightRecord.fetchOne(db, key: WeightRecord.id(for: weight.entry.date)).flatMap { $0.deleted ? nil : $0 }
                if let stored, let storedAt = StoreFormat.instant(stored.loggedAt), storedAt >= weight.measuredAt {
                    outcome.weightsKept += 1
                    continue
                }
                _ = try Outbox.save(WeightRecord(entry: weight.entry, at: weight.measuredAt, in: weight.timeZone), db, now: now)
                outcome.weightsAdded += 1
            }
            if outcome.mealsAdded + outcome.weightsAdded > 0 {
                try recordEvent(
                    .dataImported(format: format, meals: outcome.mealsAdded, weights: outcome.weightsAdded),
                    db,
                    now: now,
                    timeZone: timeZone
                )
            }
            return outcome
        }
    }
}

extension AppDatabase {
    /// The id of an imported meal: derived from `key` (its source and a key stable within
    /// that source's file, e.g. `apple-health/<start>/<app>`), the same on every import.
    public static func importedMealID(_ key: String) -> UUID {
        NaturalKey.id(table: .mealLogs, key: "import/" + key)
    }
}
