import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import PostgresNIO

/// The app's connections, as the non-owner role. Every request that touches a user's rows
/// runs in `withUser`, which sets `app.user_id` for that transaction only, so the row-level
/// security policies see exactly one user.
struct ServerDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How long a request waits for a connection while the pool hands none out at all. While
    /// PostgreSQL is down or out of reach the pool cannot open one, and a push used to wait
    /// 28–68 s for a 500; now it is answered 503 `database_unreachable` with Retry-After, and
    /// the device tries again. A request that is only queued behind others (the pool busy but
    /// serving) waits on.
    let leaseTimeout: Duration
    /// When the pool last handed out a connection, shared by every copy of this database.
    private let progress: PoolProgress

    /// `maximumConnections`: at most so many connections to PostgreSQL
    /// (`ServerConfiguration.databaseConnections`).
    init(_ url: DatabaseURL, maximumConnections: Int, leaseTimeout: Duration = .seconds(5), logger: Logger) {
        var configuration = PostgresClient.Configuration(
            host: url.host,
            port: url.port,
            username: url.username,
            password: url.password,
            database: url.database,
            tls: .disable
        )
        configuration.options.maximumConnections = maximumConnections
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        progress = PoolProgress()
    }

    private init(client: PostgresClient, logger: Logger, leaseTimeout: Duration, progress: PoolProgress) {
        self.client = client
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        self.progress = progress
    }

    /// The same pool, with statements and transactions logged to `logger` (a request's).
    func logging(to logger: Logger) -> ServerDatabase {
        ServerDatabase(client: client, logger: logger, leaseTimeout: leaseTimeout, progress: progress)
    }

    /// Whether a connection answers `SELECT 1` within `timeout` (the readiness check).
    func isReachable(within timeout: Duration) async -> Bool {
        do {
            _ = try await leased(within: timeout) { [logger] connection in try await connection.query("SELECT 1", logger: logger) }
            return true
        } catch {
            return false
        }
    }

    /// Runs `body` in a transaction that sees only `userID`'s rows.
    func withUser<Result: Sendable>(
        _ userID: UUID,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await transaction { [logger] connection in
            try await connection.query("SELECT set_config('app.user_id', \(userID.uuidString), true)", logger: logger)
            return try await body(connection)
        }
    }

    /// Runs `body` for the caller of a verified access token, in the caller's transaction,
    /// after checking in that same transaction that the token's session is still live (so a
    /// sign-out or a revoked device takes effect at once, at no extra round trip).
    func withCaller<Result: Sendable>(
        _ caller: Caller,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withUser(caller.userID) { [logger] connection in
            let rows = try await connection.query(
                """
                SELECT 1::int4 FROM sessions WHERE id = \(caller.sessionID) AND revoked_at IS NULL
                """,
                logger: logger
            )
            var live = false
            for try await _ in rows.decode(Int32.self) { live = true }
            guard live else { throw APIError.unauthorized }
            return try await body(connection)
        }
    }

    /// Runs `body` in a transaction that sees no user's rows (sign-in lookups, rate limits).
    func withoutUser<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await transaction(body)
    }

    /// `body` in a transaction on a leased connection. The result counts only once COMMIT has
    /// returned.
    private func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await Self.unwrapping {
            try await leased(within: leaseTimeout) { [logger] connection in
                try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        }
    }

    /// `body` on a leased connection outside any transaction: each statement is a transaction
    /// of its own. Only for a statement that commits before it answers (a procedure's COMMIT,
    /// `CommittedPushStatement`): a plain statement's rows can reach the client before its
    /// implicit commit is confirmed (a backend killed while the commit waits for the standby
    /// flushes them), so they are no promise that anything was stored.
    func autocommit<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await Self.unwrapping { try await leased(within: leaseTimeout, body) }
    }

    /// Runs `body` on a connection of the pool. When `timeout` passes without one, and the pool
    /// handed out none to anyone in that time, throws 503 `database_unreachable`; while it
    /// serves others, the request waits on. Only the wait for the connection is bounded: a
    /// statement already sent runs to its end.
    private func leased<Result: Sendable>(
        within timeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        // The work in a task of its own, which an event loop's timer cancels when the wait runs
        // out. A task group with a sleeping child did the same, but its extra task and wake-up
        // on every call measured 5–10 % fewer pushes per second at saturation.
        let race = LeaseRace()
        let work = Task { [client, progress] in
            try await client.withConnection { connection in
                progress.served()
                guard race.take() else { throw LeaseRace.TimedOut() }
                return try await body(connection)
            }
        }
        let (seconds, attoseconds) = timeout.components
        let wait = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        @Sendable func check() {
            if progress.served(within: timeout) {
                race.rearm(loop.scheduleTask(in: wait, check))
            } else if race.expire() {
                work.cancel()
            }
        }
        race.rearm(loop.scheduleTask(in: wait, check))
        defer { race.cancelTimer() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            guard race.expired else { throw error }
            logger.warning("no database connection: the pool served none in the wait", metadata: ["timeout": "\(timeout)"])
            throw APIError.databaseUnreachable
        }
    }

    /// A failure inside the transaction's closure is rethrown as itself (an `APIError`, a
    /// unique violation), not wrapped, once the rollback has happened.
    private static func unwrapping<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }
}

extension PSQLError {
    /// The SQLSTATE of a server error, e.g. "23505" for a unique violation.
    var sqlState: String? { serverInfo?[.sqlState] }
}

extension DatabaseURL {
    /// Runs `body` on one connection to this address, closing it afterwards also on failure.
    public func withConnection<T: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let configuration = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: .disable
        )
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// When the pool last handed out a connection (to anyone).
private final class PoolProgress: Sendable {
    private let last = NIOLockedValueBox(ContinuousClock.now)

    func served() { last.withLockedValue { $0 = .now } }

    /// Whether a connection was handed out within the last `duration`.
    func served(within duration: Duration) -> Bool {
        last.withLockedValue { ContinuousClock.now - $0 < duration }
    }
}

/// Which came first for one request: a connection, or the end of its wait (and the timer that
/// ends it). A lock, not an actor: no hop to another executor on every database call.
private final class LeaseRace: Sendable {
    struct TimedOut: Error {}

    private enum Phase {
        case waiting, taken, expired
    }

    private struct State {
        var phase = Phase.waiting
        var timer: Scheduled<Void>?
    }

    private let state = NIOLockedValueBox(State())

    /// True when the connection came in time (the wait is over for good).
    func take() -> Bool {
        state.withLockedValue { state in
            guard state.phase != .expired else { return false }
            state.phase = .taken
            return true
        }
    }

    /// Whether the wait ran out before a connection came.
    var expired: Bool { state.withLockedValue { $0.phase == .expired } }

    /// True when the wait ran out before a connection came (one coming later is given back).
    func expire() -> Bool {
        state.withLockedValue { state in
            guard state.phase != .taken else { return false }
            state.phase = .expired
            return true
        }
    }

    /// Keeps `timer` as the one to cancel when the request ends.
    func rearm(_ timer: Scheduled<Void>) {
        let stale: Scheduled<Void>? = state.withLockedValue { state in
            guard state.phase == .waiting else { return timer }
            state.timer = timer
            return nil
        }
        stale?.cancel()
    }

    func cancelTimer() {
        state.withLockedValue { state in
            if state.phase == .waiting { state.phase = .taken }
            return state.timer
        }?.cancel()
    }
}
