import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of a synced table: a client-generated id, the stamp of its last write and a
/// tombstone flag. `payload` is the row as the other side stores it.
protocol SyncedRecord: Codable, FetchableRecord, PersistableRecord {
    static var syncTable: SyncTable { get }
    var id: UUID { get }
    var updatedHLC: String { get set }
    var deleted: Bool { get set }
    /// Why the app could not use this row although the schema accepts it, or nil.
    var unreadableReason: String? { get }
}

extension SyncedRecord {
    static var databaseTableName: String { syncTable.rawValue }

    var unreadableReason: String? { nil }

    /// Ids are stored as text, the form they take in JSON and on the server.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }

    /// The row's columns as JSON, without the sync columns.
    func payload() throws -> JSONValue {
        let data = try JSONEncoder.store.encode(self)
        guard case .object(var fields) = try JSONDecoder().decode(JSONValue.self, from: data) else { return .object([:]) }
        for key in ["id", "updated_hlc", "deleted"] { fields[key] = nil }
        return .object(fields)
    }
}

extension JSONEncoder {
    /// Sorted keys, so equal rows give equal payloads.
    static var store: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// Stamps writes with this device's hybrid logical clock and queues them for upload.
enum Outbox {
    /// The next stamp of this device's clock, persisted in the same transaction.
    static func stamp(_ db: Database, now: Date) throws -> HLC {
        guard let device = try SyncState.value(.deviceID, in: db) else { throw StoreError.missingDeviceID }
        var clock = HybridLogicalClock(deviceID: device, last: try SyncState.value(.lastHLC, in: db).flatMap(HLC.init))
        let stamp = clock.tick(now: now)
        try SyncState.set(.lastHLC, stamp.description, in: db)
        return stamp
    }

    /// Saves `record` (insert or replace) with a new stamp and queues its change, replacing any
    /// pending change of the same row (the newest state is all the server needs). An upload
    /// acknowledges by stamp, so a change that replaced one in flight stays queued.
    static func save<Record: SyncedRecord>(_ record: Record, _ db: Database, now: Date) throws -> Record {
        var record = record
        record.updatedHLC = try stamp(db, now: now).description
        try record.save(db)
        try enqueue(record, db, now: now)
        return record
    }

    static func enqueue<Record: SyncedRecord>(_ record: Record, _ db: Database, now: Date) throws {
        let row = try String(decoding: JSONEncoder.store.encode(record.payload()), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO sync_outbox (table_name, row_id, hlc, deleted, row, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (table_name, row_id) DO UPDATE SET
                  hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, created_at = excluded.created_at,
                  rejected = NULL
                """,
            arguments: [
                Record.syncTable.rawValue, record.id.uuidString, record.updatedHLC, record.deleted, row,
                StoreFormat.instant(now),
            ]
        )
    }
}
