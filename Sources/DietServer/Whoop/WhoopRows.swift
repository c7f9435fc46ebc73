import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// Writes a user's WHOOP records as `whoop_records` sync rows, through the same path as a
/// device's push (`SyncRepository.takeWriteLock` and `apply`: the user's advisory lock,
/// sequence, quota and row contract), stamped by the server: device id `server`, wall clock max(now, stored + 1 ms),
/// so each write wins over the row it replaces.
struct WhoopRows: Sendable {
    /// One record as the row contract has it.
    struct Record: Sendable, Hashable {
        let kind: String
        let whoopID: String
        let recordedAt: Date
        /// The record's JSON object, as text; "{}" in a tombstone.
        let json: String
    }

    /// A stored row the server may replace.
    private struct Stored {
        let hlc: HLC
        let kind: String
        let whoopID: String
        let recordedAt: String
    }

    static let deviceID = "server"

    let logger: Logger
    let quota: QuotaPolicy

    /// Stores `records` (newest version) and tombstones for `deleted` row ids; returns how
    /// many rows were written. Runs in the calling user's transaction.
    @discardableResult
    func write(
        _ records: [Record],
        deleting deleted: [UUID] = [],
        userID: UUID,
        now: Date = Date(),
        on connection: PostgresConnection
    ) async throws -> Int {
        let ids = records.map { WhoopRow.id(kind: $0.kind, whoopID: $0.whoopID) } + deleted
        guard !ids.isEmpty else { return 0 }
        // The user's write lock, the one a push takes: no push of the user can slip in between
        // reading the stamps and writing after them.
        let repository = SyncRepository(logger: logger)
        try await repository.takeWriteLock(userID: userID, on: connection)
        let stored = try await storedRows(ids, on: connection)
        let nowMs = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        func stamp(_ id: UUID) -> HLC {
            HLC(wallMs: max(nowMs, (stored[id]?.hlc.wallMs ?? 0) + 1), counter: 0, deviceID: Self.deviceID)
        }
        var changes = records.map { record in
            let id = WhoopRow.id(kind: record.kind, whoopID: record.whoopID)
            return Change(table: .whoopRecords, id: id, hlc: stamp(id), deleted: false, row: Self.row(record))
        }
        for id in Set(deleted) {
            // A record never stored needs no tombstone: no device can hold it.
            guard let previous = stored[id], !changes.contains(where: { $0.id == id }) else { continue }
            let empty = JSONValue.object([
                "kind": .string(previous.kind), "whoop_id": .string(previous.whoopID),
                "recorded_at": .string(previous.recordedAt), "record": .string("{}"),
            ])
            changes.append(Change(table: .whoopRecords, id: id, hlc: stamp(id), deleted: true, row: empty))
        }
        let plan = SyncRepository.Plan(changes: changes, now: now)
        for (change, problem) in zip(plan.changes, plan.rejections) {
            if let problem { logger.warning("WHOOP record refused by the row contract", metadata: ["id": "\(change.id)", "reason": "\(problem)"]) }
        }
        let applied = try await repository.apply(plan, userID: userID, session: nil, quota: quota, on: connection)
        return applied.count
    }

    /// Tombstones for every live WHOOP row of the calling user (a disconnect).
    @discardableResult
    func deleteAll(userID: UUID, on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query(
            """
            SELECT id FROM sync_rows WHERE user_id = app_user_id() AND table_name = \(SyncTable.whoopRecords.rawValue) AND NOT deleted
            """,
            logger: logger
        )
        var ids: [UUID] = []
        for try await id in rows.decode(UUID.self) { ids.append(id) }
        return try await write([], deleting: ids, userID: userID, on: connection)
    }

    /// The row id of the stored recovery whose record names `sleepID` (WHOOP's v2 recovery
    /// webhooks name the sleep, while the row is keyed by the cycle).
    func recoveryRow(sleepID: String, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query(
            """
            SELECT id FROM sync_rows WHERE user_id = app_user_id() AND table_name = \(SyncTable.whoopRecords.rawValue)
              AND row->>'kind' = 'recovery' AND NOT deleted AND (row->>'record')::jsonb->>'sleep_id' = \(sleepID)
            """,
            logger: logger
        )
        for try await id in rows.decode(UUID.self) { return id }
        return nil
    }

    private func storedRows(_ ids: [UUID], on connection: PostgresConnection) async throws -> [UUID: Stored] {
        let rows = try await connection.query(
            """
            SELECT id, hlc, row->>'kind', row->>'whoop_id', row->>'recorded_at' FROM sync_rows
            WHERE user_id = app_user_id() AND table_name = \(SyncTable.whoopRecords.rawValue) AND id = ANY(\(ids))
            """,
            logger: logger
        )
        var stored: [UUID: Stored] = [:]
        for try await (id, stamp, kind, whoopID, recordedAt) in rows.decode((UUID, String, String?, String?, String?).self) {
            guard let hlc = HLC(stamp) else { continue }
            stored[id] = Stored(hlc: hlc, kind: kind ?? "", whoopID: whoopID ?? "", recordedAt: recordedAt ?? "")
        }
        return stored
    }

    static func row(_ record: Record) -> JSONValue {
        .object([
            "kind": .string(record.kind), "whoop_id": .string(record.whoopID),
            "recorded_at": .string(instant(record.recordedAt)), "record": .string(record.json),
        ])
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, the contract's instant.
    static func instant(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .current))
    }
}
