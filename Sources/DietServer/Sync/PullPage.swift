import Foundation
import NIOCore
import PostgresNIO
import SyncProtocol

/// One pull page's rows: the user's rows after the cursor in sequence order, at most `limit`
/// and, by the stored sizes, about the byte budget (a running sum over the page, so rows past
/// the budget are neither read nor sent). `in_page` says how many rows the row limit alone
/// would have given, so a page cut for its bytes still says there is more.
struct PullStatement: PostgresPreparedStatement {
    static let name = "wdiet_sync_pull_v1"

    struct Row {
        let table: String
        let id: UUID
        let hlc: String
        let deleted: Bool
        let json: ByteBuffer
        let seq: Int64
        let inPage: Int64
    }

    // Each row's share of the budget: its stored bytes, a tenth more for the spaces jsonb's
    // text puts after colons and commas, and its envelope (table, id, stamp, flag).
    static let sql = """
        SELECT q.table_name, q.id, q.hlc, q.deleted, q.row::text, q.seq, q.in_page FROM (
          SELECT p.*, row_number() OVER (ORDER BY p.seq) AS position,
                 sum(p.row_bytes::int8 * 11 / 10 + 200) OVER (ORDER BY p.seq) AS running, count(*) OVER () AS in_page
          FROM (SELECT table_name, id, hlc, deleted, row, seq, row_bytes FROM sync_rows
                WHERE user_id = app_user_id() AND seq > $1 ORDER BY seq LIMIT $2) AS p
        ) AS q
        WHERE q.position = 1 OR q.running <= $3
        ORDER BY q.seq
        """

    static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]

    let cursor: Int64
    let limit: Int
    let byteBudget: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(cursor)
        // One row more than the page holds tells whether there is more.
        bindings.append(Int64(limit) + 1)
        bindings.append(Int64(byteBudget))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (table, id, hlc, deleted, json, seq, inPage) = try row.decode((String, UUID, String, Bool, ByteBuffer, Int64, Int64).self)
        return Row(table: table, id: id, hlc: hlc, deleted: deleted, json: json, seq: seq, inPage: inPage)
    }
}

/// A pull page: the JSON of a `PullResponse` and how many changes it holds.
struct PulledPage: Sendable {
    let json: ByteBuffer
    let changes: Int
}

/// Writes a `PullResponse` as JSON while the page's rows arrive, stopping at the row limit or
/// before a row that would take the page past its byte budget (a first row always goes in).
struct PageWriter {
    private let limit: Int
    private let byteBudget: Int
    private var buffer = ByteBuffer()
    private var next: Int64
    /// Rows read (the cursor moves past them) and rows written (known tables only).
    private var count = 0
    private var written = 0
    private var more = false
    private var inPage: Int64 = 0
    /// Room for the closing `],"next_cursor":…,"has_more":false}`.
    private static let tailBytes = 64
    private static let headBytes = #"{"changes":["#.utf8.count

    init(cursor: Int64, limit: Int, byteBudget: Int) {
        self.limit = limit
        self.byteBudget = byteBudget
        next = cursor
        buffer.reserveCapacity(64 << 10)
        buffer.writeString(#"{"changes":["#)
    }

    /// Adds `row`; false when the page is full (the row is left for the next page).
    mutating func append(_ row: PullStatement.Row) -> Bool {
        inPage = row.inPage
        guard count < limit else {
            more = true
            return false
        }
        let envelope = #"{"table":"\#(row.table)","id":"\#(row.id.uuidString)","hlc":"\#(row.hlc)","deleted":\#(row.deleted),"row":"#
        if count > 0, buffer.readableBytes + 1 + envelope.utf8.count + row.json.readableBytes + 1 + Self.tailBytes > byteBudget {
            more = true
            return false
        }
        count += 1
        next = row.seq
        // Rows of tables this server version does not know are passed over, not failed on.
        guard SyncTable(rawValue: row.table) != nil, HLC(row.hlc) != nil else { return true }
        if buffer.readableBytes > Self.headBytes { buffer.writeString(",") }
        buffer.writeString(envelope)
        buffer.writeImmutableBuffer(row.json)
        buffer.writeString("}")
        written += 1
        return true
    }

    /// The whole page; there is more when a row was left out here or by the statement's budget.
    func finish() -> PulledPage {
        var buffer = buffer
        let more = more || Int64(count) < inPage
        buffer.writeString(#"],"next_cursor":\#(next),"has_more":\#(more)}"#)
        return PulledPage(json: buffer, changes: written)
    }
}
