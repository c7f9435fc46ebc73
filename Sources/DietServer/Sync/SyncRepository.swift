import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// The synced rows of one user in PostgreSQL: last writer wins by HLC, one statement per push.
struct SyncRepository: Sendable {
    let logger: Logger

    /// A push, checked and reduced to the newest change per row before it touches the database.
    struct Plan: Sendable {
        struct Key: Hashable, Sendable {
            let table: SyncTable
            let id: UUID
        }

        /// Per change, in request order: nil if it goes to the database, or why it was refused.
        let rejections: [String?]
        let keys: [Key]
        /// The newest valid change of each row.
        let candidates: [Key: Change]

        init(changes: [Change], now: Date, maxClockLead: TimeInterval, maxRowBytes: Int) {
            let limit = Int64((now.timeIntervalSince1970 + maxClockLead) * 1000)
            var rejections: [String?] = []
            var candidates: [Key: Change] = [:]
            for change in changes {
                var problem: String?
                if change.hlc.wallMs > limit {
                    problem = "Its clock stamp is more than a day ahead of the server; check the device's date and time."
                } else if case .object = change.row {
                    if let size = try? JSONEncoder().encode(change.row).count, size > maxRowBytes {
                        problem = "The row has \(size) bytes; at most \(maxRowBytes) are accepted."
                    }
                } else {
                    problem = "The row must be a JSON object."
                }
                rejections.append(problem)
                let key = Key(table: change.table, id: change.id)
                if problem == nil, candidates[key].map({ change.hlc > $0.hlc }) ?? true { candidates[key] = change }
            }
            self.rejections = rejections
            keys = changes.map { Key(table: $0.table, id: $0.id) }
            self.candidates = candidates
            self.changes = changes
        }

        let changes: [Change]

        /// The candidates in the order they were pushed, so they take sequence numbers (and
        /// reach other devices) in that order.
        var candidatesInOrder: [Change] {
            var emitted = Set<Key>()
            return changes.filter { change in
                let key = Key(table: change.table, id: change.id)
                guard candidates[key]?.hlc == change.hlc, !emitted.contains(key) else { return false }
                emitted.insert(key)
                return true
            }
        }

        /// One result per pushed change: applied if it is the change that was stored.
        func results(applied: Set<Key>) -> [PushResult] {
            zip(changes, rejections).map { change, rejection in
                let key = Key(table: change.table, id: change.id)
                if let rejection { return PushResult(id: change.id, table: change.table, status: .rejected, message: rejection) }
                let stored = applied.contains(key) && candidates[key]?.hlc == change.hlc
                return PushResult(id: change.id, table: change.table, status: stored ? .applied : .ignored)
            }
        }
    }

    /// Stores the plan's candidates that are newer than the stored rows; returns their keys.
    /// A transaction-scoped advisory lock on the user serialises the user's pushes, so the
    /// sequence numbers they take are in commit order and a pull never skips a late commit.
    func apply(_ plan: Plan, userID: UUID, on connection: PostgresConnection) async throws -> Set<Plan.Key> {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(userID.uuidString), 0))", logger: logger)
        let candidates = plan.candidatesInOrder
        guard !candidates.isEmpty else { return [] }
        let tables = candidates.map(\.table.rawValue)
        let ids = candidates.map(\.id)
        let stamps = candidates.map(\.hlc.description)
        let deleted = candidates.map(\.deleted)
        let rows = try candidates.map { String(decoding: try JSONEncoder().encode($0.row), as: UTF8.self) }
        let result = try await connection.query("""
            INSERT INTO sync_rows AS s (user_id, table_name, id, hlc, deleted, row, seq)
            SELECT \(userID), c.table_name, c.id, c.hlc, c.deleted, c.row::jsonb, nextval('sync_seq')
            FROM unnest(\(tables)::text[], \(ids)::uuid[], \(stamps)::text[], \(deleted)::bool[], \(rows)::text[])
              WITH ORDINALITY AS c (table_name, id, hlc, deleted, row, position)
            ORDER BY c.position
            ON CONFLICT (user_id, table_name, id) DO UPDATE
              SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, seq = excluded.seq, updated_at = now()
              WHERE s.hlc < excluded.hlc
            RETURNING s.table_name, s.id
            """, logger: logger)
        var applied = Set<Plan.Key>()
        for try await (table, id) in result.decode((String, UUID).self) {
            if let table = SyncTable(rawValue: table) { applied.insert(Plan.Key(table: table, id: id)) }
        }
        return applied
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
