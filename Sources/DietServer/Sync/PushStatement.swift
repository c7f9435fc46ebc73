import Foundation
import PostgresNIO
import SyncProtocol

/// A whole push in one call of `sync_push_verdict` (migrations 20261124_1800 and
/// 20261125_0900): it sets the transaction's user, takes the user's write lock, then checks
/// the pushing device's session, which pushed rows are newer than the stored ones, what they
/// add to the stored bytes (from the replaced rows' `row_bytes`), the quota and the push rate,
/// upserts the winners with the next sequence numbers and updates the usage. It stores
/// nothing when the session is not live or a check fails; it returns the usage it checked
/// against, so `UserUsage.check` can say why, and the applied rows' keys. For a writer inside
/// a transaction of its own (the server's WHOOP rows); a push request uses
/// `CommittedPushStatement`.
///
/// Before, the same push took seven round trips between BEGIN and COMMIT (session check,
/// lock, the newer-than-stored SELECT, usage load, INSERT, usage save), five of them under
/// the lock, each planned anew; then four (BEGIN, the lock, the push, COMMIT), then three.
///
/// The stored rows are looked up one candidate at a time by the whole primary key (a lateral
/// subquery the planner cannot flatten): as a plain join, a plan made while the user's rows
/// were few in the statistics scanned all of the user's rows for every push (12.7 ms on
/// average, up to 640 ms, under the lock).
struct PushStatement: PostgresPreparedStatement {
    static let name = "wdiet_sync_push_v3"

    /// The statement returned no verdict, or refused a push the usage check lets through:
    /// a bug, answered 500 with nothing stored.
    struct Inconsistent: Error {}

    /// What the push found and did.
    struct Verdict {
        let live: Bool
        let ok: Bool
        let usage: UserUsage
        let winners: Int64
        let added: Int64
        let growth: Int64
        let applied: Set<SyncRepository.Plan.Key>
    }

    static let sql = "SELECT * FROM sync_push_verdict($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"

    static let bindingDataTypes: [PostgresDataType] = [
        .uuid, .uuid, .textArray, .uuidArray, .textArray, .boolArray, .textArray, .int8, .int8, .float8,
    ]

    let userID: UUID
    /// The pushing device's session, checked in the statement; nil for the server's own writes.
    let sessionID: UUID?
    let candidates: [Change]
    /// Each candidate's row as JSON text, in the same order.
    let rows: [String]
    let quota: QuotaPolicy

    init(_ plan: SyncRepository.Plan, userID: UUID, session: UUID?, quota: QuotaPolicy) throws {
        self.userID = userID
        sessionID = session
        candidates = plan.candidatesInOrder
        rows = try candidates.map { try RowJSON.text($0.row) }
        self.quota = quota
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(userID)
        bindings.append(sessionID)
        bindings.append(candidates.map(\.table.rawValue))
        bindings.append(candidates.map(\.id))
        bindings.append(candidates.map(\.hlc.description))
        bindings.append(candidates.map(\.deleted))
        bindings.append(rows)
        bindings.append(quota.storedBytes)
        bindings.append(quota.pushBytesPerMinute)
        bindings.append(UserUsage.rateWindow)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Verdict {
        // Aggregates over no lines are NULL: `sync_push` always returns one, so NULL is a bug.
        let (live, ok, lastSeq, stored, age, windowBytes, winners, added, growth, tables, ids) =
            try row.decode((Bool?, Bool?, Int64?, Int64?, Double?, Int64?, Int64?, Int64?, Int64?, [String], [UUID]).self)
        guard let live, let ok, let lastSeq, let stored, let age, let windowBytes, let winners, let added, let growth,
            tables.count == ids.count
        else { throw Inconsistent() }
        var applied = Set<SyncRepository.Plan.Key>()
        for (table, id) in zip(tables, ids) {
            guard let table = SyncTable(rawValue: table) else { throw Inconsistent() }
            applied.insert(SyncRepository.Plan.Key(table: table, id: id))
        }
        return Verdict(
            live: live,
            ok: ok,
            usage: UserUsage(lastSeq: lastSeq, storedBytes: stored, windowAge: age, windowBytes: windowBytes),
            winners: winners,
            added: added,
            growth: growth,
            applied: applied
        )
    }
}

/// A push request's statement: `PushStatement` as a transaction of its own, in one round trip.
/// The procedure `sync_push_committed` COMMITs before it returns the verdict, so an answer
/// means the rows are stored (and confirmed by a synchronous standby). Sent outside any
/// transaction (`ServerDatabase.autocommit`): inside one, PostgreSQL refuses the COMMIT.
///
/// A plain statement run as a transaction of its own is no such promise: PostgreSQL buffers
/// its rows and CommandComplete while the implicit commit waits for the standby, and a backend
/// killed then flushes them to the client before it dies. PostgresNIO completes the query on
/// CommandComplete, so the server acknowledged a push that was lost in the failover (the
/// failover test pauses the standby's WAL receiver to catch exactly this).
struct CommittedPushStatement: PostgresPreparedStatement {
    static let name = "wdiet_sync_push_committed_v1"
    // The procedure's OUT arguments are written as NULL.
    static let sql = "CALL sync_push_committed($1, $2, $3, $4, $5, $6, $7, $8, $9, $10" + String(repeating: ", NULL", count: 11) + ")"
    static let bindingDataTypes = PushStatement.bindingDataTypes

    let push: PushStatement

    func makeBindings() throws -> PostgresBindings { try push.makeBindings() }

    func decodeRow(_ row: PostgresRow) throws -> PushStatement.Verdict { try push.decodeRow(row) }
}
