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

    /// The candidates of `plan` newer than the stored rows, stored; returns their keys. Takes
    /// the user's advisory lock first (re-entrant: a caller may hold it already).
    func apply(_ plan: Plan, userID: UUID, quota: QuotaPolicy, on connection: PostgresConnection) async throws -> Set<Plan.Key> {
        let lock = try await UserWriteLock.take(userID: userID, on: connection, logger: logger)
        return try await apply(plan, holding: lock, quota: quota, on: connection)
    }

    /// Stores the plan's candidates that are newer than the stored rows; returns their keys.
    /// The transaction holds the user's advisory lock (`lock`), which serialises the user's
    /// pushes, so the sequence numbers they take are in commit order and a pull never skips a
    /// late commit. One statement does the work (`PushStatement`): it checks the lock's
    /// session, and throws 413 over the stored-bytes quota and 429 over the push rate with
    /// nothing stored.
    func apply(_ plan: Plan, holding lock: UserWriteLock, quota: QuotaPolicy, on connection: PostgresConnection) async throws -> Set<Plan.Key> {
        let candidates = plan.candidatesInOrder
        let statement = PushStatement(
            userID: lock.userID,
            sessionID: lock.uncheckedSession,
            candidates: candidates,
            rows: try candidates.map { try RowJSON.text($0.row) },
            quota: quota
        )
        var verdict: PushStatement.Row?
        var applied = Set<Plan.Key>()
        for try await row in try await connection.execute(statement, logger: logger) {
            if verdict == nil { verdict = row }
            if let key = row.applied { applied.insert(key) }
        }
        guard let verdict else { throw PushStatement.Inconsistent() }
        guard verdict.live else { throw APIError.unauthorized }
        guard verdict.winners > 0 else { return [] }
        // A refused push stored nothing; the usage it was checked against says why.
        try verdict.usage.check(pushing: verdict.added, growth: verdict.growth, quota: quota)
        guard verdict.ok else { throw PushStatement.Inconsistent() }
        return applied
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

/// Proof that the current transaction holds a user's write lock (the transaction-scoped
/// advisory lock on the user id), with the caller's session that the first statement under
/// the lock must still check (nil for the server's own writes).
struct UserWriteLock: Sendable {
    let userID: UUID
    let uncheckedSession: UUID?

    /// Takes the lock in the current transaction, whose user is already set.
    static func take(userID: UUID, on connection: PostgresConnection, logger: Logger) async throws -> UserWriteLock {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(userID.uuidString), 0))", logger: logger)
        return UserWriteLock(userID: userID, uncheckedSession: nil)
    }
}
