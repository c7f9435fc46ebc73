import Foundation
import Logging
import PostgresNIO

/// The app's connections, as the non-owner role. Every request that touches a user's rows
/// runs in `withUser`, which sets `app.user_id` for that transaction only, so the row-level
/// security policies see exactly one user.
struct ServerDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// `maximumConnections`: at most so many connections to PostgreSQL
    /// (`ServerConfiguration.databaseConnections`).
    init(_ url: DatabaseURL, maximumConnections: Int, logger: Logger) {
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
    }

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The same pool, with statements and transactions logged to `logger` (a request's).
    func logging(to logger: Logger) -> ServerDatabase {
        ServerDatabase(client: client, logger: logger)
    }

    /// Runs `body` in a transaction that sees only `userID`'s rows.
    func withUser<Result: Sendable>(
        _ userID: UUID,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await Self.unwrapping {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT set_config('app.user_id', \(userID.uuidString), true)", logger: logger)
                return try await body(connection)
            }
        }
    }

    /// Runs `body` for the caller of a verified access token, in the caller's transaction,
    /// after checking in that same transaction that the token's session is still live (so a
    /// sign-out or a revoked device takes effect at once, at no extra round trip).
    func withCaller<Result: Sendable>(
        _ caller: Caller,
        _ body: @Sendable (PostgresConnection) async throws -> Result
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

    /// Runs `body` on one of the pool's connections outside a transaction, so each statement
    /// is a transaction of its own: for a statement that sets its user itself (the push).
    func withConnection<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// Runs `body` in a transaction that sees no user's rows (sign-in lookups, rate limits).
    func withoutUser<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await Self.unwrapping {
            try await client.withTransaction(logger: logger) { connection in
                try await body(connection)
            }
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
