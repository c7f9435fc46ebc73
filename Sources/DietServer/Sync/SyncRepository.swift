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

    /// The most a pull page holds: rows stop at this many bytes of JSON as well as at the
    /// row limit (a calendar row alone can be a megabyte). A first row larger than this is
    /// sent alone, so the cursor always moves.
    static let pageByteBudget = 4 << 20

    /// Stores the plan's candidates that are newer than the stored rows; returns their keys.
    /// One statement does the work (`PushStatement`): it sets the user, takes the user's write
    /// lock (`takeWriteLock`), which serialises the user's pushes, so the sequence numbers
    /// they take are in commit order and a pull never skips a late commit; it checks
    /// `session` (nil for the server's own writes), and throws 413 over the stored-bytes
    /// quota and 429 over the push rate with nothing stored. Run it inside a transaction: the
    /// lock is held until that ends, and only its COMMIT says the rows are stored.
    func apply(_ plan: Plan, userID: UUID, session: UUID?, quota: QuotaPolicy, on connection: PostgresConnection) async throws -> Set<Plan.Key> {
        let statement = try PushStatement(plan, userID: userID, session: session, quota: quota)
        return try await applied(by: statement, quota: quota, on: connection)
    }

    /// `apply` as a transaction of its own, committed (and confirmed by a synchronous standby)
    /// before it returns: one round trip (`CommittedPushStatement`). Run it outside any
    /// transaction (`ServerDatabase.autocommit`); inside one, PostgreSQL refuses it.
    func applyCommitted(
        _ plan: Plan,
        userID: UUID,
        session: UUID?,
        quota: QuotaPolicy,
        on connection: PostgresConnection
    ) async throws -> Set<Plan.Key> {
        let statement = CommittedPushStatement(push: try PushStatement(plan, userID: userID, session: session, quota: quota))
        return try await applied(by: statement, quota: quota, on: connection)
    }

    private func applied<Statement: PostgresPreparedStatement>(
        by statement: Statement,
        quota: QuotaPolicy,
        on connection: PostgresConnection
    ) async throws -> Set<Plan.Key> where Statement.Row == PushStatement.Verdict {
        var verdict: PushStatement.Verdict?
        for try await row in try await connection.execute(statement, logger: logger) where verdict == nil { verdict = row }
        guard let verdict else { throw PushStatement.Inconsistent() }
        guard verdict.live else { throw APIError.unauthorized }
        guard verdict.winners > 0 else { return [] }
        // A refused push stored nothing; the usage it was checked against says why.
        try verdict.usage.check(pushing: verdict.added, growth: verdict.growth, quota: quota)
        guard verdict.ok else { throw PushStatement.Inconsistent() }
        return verdict.applied
    }

    /// Takes the user's write lock (the transaction-scoped advisory lock every write of the
    /// user's synced rows takes) in the current transaction, for a writer that must read the
    /// stored rows before it writes after them. Re-entrant: the push statement takes it again.
    func takeWriteLock(userID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT user_write_lock(\(userID))", logger: logger)
    }

    /// The user's changes after `cursor`, oldest first, as the JSON of a `PullResponse`: at
    /// most `limit` rows and about `byteBudget` bytes. The rows are spliced in as PostgreSQL
    /// stores them (valid JSON objects), not decoded and encoded again; the other fields are
    /// an enum name, a UUID, a checked stamp and numbers.
    func pageJSON(after cursor: Int64, limit: Int, byteBudget: Int = pageByteBudget, on connection: PostgresConnection) async throws -> PulledPage {
        var page = PageWriter(cursor: cursor, limit: limit, byteBudget: byteBudget)
        let statement = PullStatement(cursor: cursor, limit: limit, byteBudget: byteBudget)
        for try await row in try await connection.execute(statement, logger: logger) {
            guard page.append(row) else { break }
        }
        return page.finish()
    }
}
