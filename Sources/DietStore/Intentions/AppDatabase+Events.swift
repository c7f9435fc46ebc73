import DietCore
import Foundation
import GRDB
import SyncProtocol

extension AppDatabase {
    /// Records an analytics event in its own transaction.
    public func record(_ event: AnalyticsEvent, timeZone: TimeZone) throws {
        let now = clock.now()
        try writer.write { db in try recordEvent(event, db, now: now, timeZone: timeZone) }
    }

    /// Records an analytics event inside a write that is already open.
    func recordEvent(_ event: AnalyticsEvent, _ db: Database, now: Date, timeZone: TimeZone) throws {
        let json = try String(decoding: JSONEncoder.store.encode(event.properties), as: UTF8.self)
        let record = EventRecord(
            id: UUID(),
            name: event.name,
            occurredAt: StoreFormat.instant(now),
            localDate: LocalDate(now, in: timeZone).iso,
            timeZone: timeZone.identifier,
            properties: json,
            updatedHLC: "",
            deleted: false
        )
        _ = try Outbox.save(record, db, now: now)
    }

    /// The names of recorded events, oldest first (for tests and the export).
    public func eventNames() throws -> [String] {
        try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM analytics_events ORDER BY occurred_at, rowid") }
    }
}
