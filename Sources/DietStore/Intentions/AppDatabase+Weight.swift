import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// Logs the weight of `entry.date`, replacing that day's entry. Records `weight_logged`.
    ///
    /// `loggedAt` is when a phone logged it offline (nil: now). One weight per day and the
    /// weight logged later wins: when that day's stored weight was logged at or after
    /// `loggedAt` (a newer one, or this same write replayed after a lost answer), nothing
    /// changes and the result is false.
    @discardableResult
    public func logWeight(_ entry: WeightEntry, timeZone: TimeZone, loggedAt: Date? = nil) throws -> Bool {
        let now = clock.now()
        return try writer.write { db in
            guard try Self.settings(db) != nil else { throw StoreError.notOnboarded }
            let stored = try WeightRecord.fetchOne(db, key: WeightRecord.id(for: entry.date)).flatMap { $0.deleted ? nil : $0 }
            if let loggedAt, let stored, let storedAt = StoreFormat.instant(stored.loggedAt), storedAt >= loggedAt { return false }
            _ = try Outbox.save(WeightRecord(entry: entry, at: loggedAt ?? now, in: timeZone), db, now: now)
            try recordEvent(.weightLogged(replacedSameDay: stored != nil), db, now: now, timeZone: timeZone)
            return true
        }
    }

    /// Deletes the weight of `date`, if any, as a tombstone.
    public func deleteWeight(on date: LocalDate) throws {
        let now = clock.now()
        try writer.write { db in
            guard var record = try WeightRecord.fetchOne(db, key: WeightRecord.id(for: date)), !record.deleted else {
                throw StoreError.notFound(table: "weight_entries", id: date.iso)
            }
            record.deleted = true
            _ = try Outbox.save(record, db, now: now)
        }
    }

    /// The latest weigh-in up to `date`, one indexed row; nil before any.
    public func latestWeightKg(through date: LocalDate) throws -> Double? {
        try reader.read { db in try Self.recentWeights(db, through: date).last?.kg }
    }

    /// Weights from `first` through `last`, oldest first.
    public func weights(from first: LocalDate, through last: LocalDate) throws -> [WeightEntry] {
        try reader.read { db in try WeightRecord.all().between(first, last).fetchAll(db).compactMap(\.entry) }
    }
}
