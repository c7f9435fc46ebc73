import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// The synced rows of one user in PostgreSQL: last writer wins by HLC. Each user's changes
/// are numbered by the user's own sequence (`user_usage.last_seq`), and the bytes the user
/// stores and pushes are kept there too, so a push checks the quota without reading the
/// user's rows.
struct SyncRepository: Sendable {
    let logger: Logger

    /// A candidate that is newer than the stored row, with its JSON text.
    private struct Winner {
        let change: Change
        let json: String
        let replacedBytes: Int64
    }

    /// Stores the plan's candidates that are newer than the stored rows; returns their keys.
    /// A transaction-scoped advisory lock on the user serialises the user's pushes, so the
    /// sequence numbers they take are in commit order and a pull never skips a late commit.
    /// Throws 413 over the stored-bytes quota and 429 over the push rate (nothing is stored).
    func apply(_ plan: Plan, userID: UUID, quota: QuotaPolicy, on connection: PostgresConnection) async throws -> Set<Plan.Key> {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(userID.uuidString), 0))", logger: logger)
        let candidates = plan.candidatesInOrder
        guard !candidates.isEmpty else { return [] }
        let winners = try await newerThanStored(candidates, on: connection)
        guard !winners.isEmpty else { return [] }
        let usage = try await UserUsage.load(on: connection, logger: logger)
        let added = winners.reduce(Int64(0)) { $0 + Int64($1.json.utf8.count) }
        let growth = added - winners.reduce(Int64(0)) { $0 + $1.replacedBytes }
        try usage.check(pushing: added, growth: growth, quota: quota)

        let result = try await connection.query("""
            INSERT INTO sync_rows AS s (user_id, table_name, id, hlc, deleted, row, row_bytes, seq)
            SELECT \(userID), c.table_name, c.id, c.hlc, c.deleted, c.row::jsonb, octet_length(c.row), \(usage.lastSeq) + c.ordinal
            FROM unnest(\(winners.map(\.change.table.rawValue))::text[], \(winners.map(\.change.id))::uuid[],
                        \(winners.map(\.change.hlc.description))::text[], \(winners.map(\.change.deleted))::bool[],
                        \(winners.map(\.json))::text[])
              WITH ORDINALITY AS c (table_name, id, hlc, deleted, row, ordinal)
            ORDER BY c.ordinal
            ON CONFLICT (user_id, table_name, id) DO UPDATE
              SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, row_bytes = excluded.row_bytes,
                  seq = excluded.seq, updated_at = now()
              WHERE s.hlc < excluded.hlc
            RETURNING s.table_name, s.id
            """, logger: logger)
        var applied = Set<Plan.Key>()
        for try await (table, id) in result.decode((String, UUID).self) {
            if let table = SyncTable(rawValue: table) { applied.insert(Plan.Key(table: table, id: id)) }
        }
        try await usage.save(userID: userID, lastSeq: usage.lastSeq + Int64(winners.count), growth: growth, pushed: added,
                             on: connection, logger: logger)
        return applied
    }

    /// The candidates whose stamp is newer than the stored row's (or that have none), with
    /// the size of the row each one replaces. Stamps compare as text in byte order, as the
    /// column (collation "C") does.
    private func newerThanStored(_ candidates: [Change], on connection: PostgresConnection) async throws -> [Winner] {
        let rows = try await connection.query("""
            SELECT s.table_name, s.id, s.hlc, s.row_bytes::int8 FROM sync_rows s
            JOIN unnest(\(candidates.map(\.table.rawValue))::text[], \(candidates.map(\.id))::uuid[]) AS c (table_name, id)
              ON s.table_name = c.table_name AND s.id = c.id
            WHERE s.user_id = app_user_id()
            """, logger: logger)
        var stored: [Plan.Key: (hlc: String, bytes: Int64)] = [:]
        for try await (table, id, hlc, bytes) in rows.decode((String, UUID, String, Int64).self) {
            if let table = SyncTable(rawValue: table) { stored[Plan.Key(table: table, id: id)] = (hlc, bytes) }
        }
        return try candidates.compactMap { change in
            let previous = stored[Plan.Key(table: change.table, id: change.id)]
            if let previous, !previous.hlc.utf8.lexicographicallyPrecedes(change.hlc.description.utf8) { return nil }
            let json = String(decoding: try JSONEncoder().encode(change.row), as: UTF8.self)
            return Winner(change: change, json: json, replacedBytes: previous?.bytes ?? 0)
        }
    }

    /// The user's changes after `cursor`, oldest first, as the JSON of a `PullResponse`. The
    /// rows are spliced in as PostgreSQL stores them (valid JSON objects), not decoded and
    /// encoded again; the other fields are an enum name, a UUID, a checked stamp and numbers.
    func pageJSON(after cursor: Int64, limit: Int, on connection: PostgresConnection) async throws -> ByteBuffer {
        let rows = try await connection.query("""
            SELECT table_name, id, hlc, deleted, row::text, seq FROM sync_rows
            WHERE user_id = app_user_id() AND seq > \(cursor) ORDER BY seq LIMIT \(limit + 1)
            """, logger: logger)
        var buffer = ByteBuffer()
        buffer.writeString(#"{"changes":["#)
        var next = cursor
        var count = 0
        var more = false
        for try await (table, id, stamp, deleted, row, seq) in rows.decode((String, UUID, String, Bool, String, Int64).self) {
            guard count < limit else {
                more = true
                break
            }
            count += 1
            next = seq
            // Rows of tables this server version does not know are passed over, not failed on.
            guard SyncTable(rawValue: table) != nil, HLC(stamp) != nil else { continue }
            if buffer.readableBytes > 12 { buffer.writeString(",") }
            buffer.writeString(#"{"table":"\#(table)","id":"\#(id.uuidString)","hlc":"\#(stamp)","deleted":\#(deleted),"row":"#)
            buffer.writeString(row)
            buffer.writeString("}")
        }
        buffer.writeString(#"],"next_cursor":\#(next),"has_more":\#(more)}"#)
        return buffer
    }
}
