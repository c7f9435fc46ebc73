import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// Logs the weight of `entry.date`, replacing that day's entry. Records `weight_logged`.
    public func logWeight(_ entry: WeightEntry, timeZone: TimeZone) throws {
        let now = clock.now()
        try writer.write { db in
            guard try Self.settings(db) != nil else { throw StoreError.notOnboarded }
            let replaced = try WeightRecord.fetchOne(db, key: WeightRecord.id(for: entry.date)).map { !$0.deleted } ?? false
            _ = try Outbox.save(WeightRecord(entry: entry, at: now, in: timeZone), db, now: now)
            try recordEvent(.weightLogged(replacedSameDay: replaced), db, now: now, timeZone: timeZone)
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

    /// Weights from `first` through `last`, oldest first.
    public func weights(from first: LocalDate, through last: LocalDate) throws -> [WeightEntry] {
        try reader.read { db in try WeightRecord.all().between(first, last).fetchAll(db).compactMap(\.entry) }
    }
}
