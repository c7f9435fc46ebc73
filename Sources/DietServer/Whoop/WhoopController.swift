import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol
import WhoopAPI

/// The server's WHOOP endpoints (`WhoopPaths`): connect, callback, status, disconnect and the
/// webhook. Without a WHOOP registration (`ServerConfiguration.whoop`) each answers 503.
struct WhoopController: PerRequestLogging {
    let database: ServerDatabase
    let configuration: ServerConfiguration
    let logger: Logger
    /// Nil when the server has no WHOOP registration (or no usable token key).
    let connector: WhoopConnector?
    let verifier: WhoopWebhookVerifier?

    init(database: ServerDatabase, configuration: ServerConfiguration, logger: Logger) {
        self.init(
            database: database,
            configuration: configuration,
            logger: logger,
            connector: WhoopConnector(configuration: configuration, database: database, logger: logger),
            verifier: configuration.whoop.map { WhoopWebhookVerifier(clientSecret: $0.clientSecret) }
        )
    }

    private init(
        database: ServerDatabase,
        configuration: ServerConfiguration,
        logger: Logger,
        connector: WhoopConnector?,
        verifier: WhoopWebhookVerifier?
    ) {
        self.database = database
        self.configuration = configuration
        self.logger = logger
        self.connector = connector
        self.verifier = verifier
    }

    func logging(to logger: Logger) -> WhoopController {
        WhoopController(
            database: database.logging(to: logger),
            configuration: configuration,
            logger: logger,
            connector: connector?.logging(to: logger),
            verifier: verifier
        )
    }

    static let notConfigured = APIError(
        status: .serviceUnavailable,
        code: "whoop_not_configured",
        message: "This server has no WHOOP registration, so WHOOP cannot be connected through it."
    )

    func addRoutes(to router: Router<ServerContext>, protected: RouterGroup<ServerContext>) {
        protected.post(RouterPath(WhoopPaths.connect), use: perRequest(Self.connect))
        protected.get(RouterPath(WhoopPaths.connection), use: perRequest(Self.status))
        protected.delete(RouterPath(WhoopPaths.connection), use: perRequest(Self.disconnect))
        router.get(RouterPath(WhoopPaths.callback), use: perRequest(Self.callback))
        router.post(RouterPath(WhoopPaths.webhook), use: perRequest(Self.webhook))
    }

    func requireConnector() throws -> WhoopConnector {
        guard let connector else { throw Self.notConfigured }
        return connector
    }

    @Sendable func connect(request: Request, context: ServerContext) async throws -> JSONBody<WhoopConnectStart> {
        let connector = try requireConnector()
        let caller = try context.requireCaller()
        let state = WhoopOAuth.makeState()
        let expiresAt = Date().addingTimeInterval(WhoopRepository.stateLifetime)
        guard let url = WhoopOAuth.authorizeURL(connector.whoop, state: state) else {
            throw APIError(status: .internalServerError, code: "whoop_misconfigured", message: "The WHOOP address could not be made.")
        }
        try await database.withCaller(caller) { [repository = connector.repository] connection in
            try await repository.saveState(state, expiresAt: expiresAt, userID: caller.userID, on: connection)
        }
        return JSONBody(WhoopConnectStart(authorizeURL: url.absoluteString, expiresAt: expiresAt))
    }

    @Sendable func status(request: Request, context: ServerContext) async throws -> JSONBody<WhoopStatus> {
        let connector = try requireConnector()
        let caller = try context.requireCaller()
        let stored = try await database.withCaller(caller) { [repository = connector.repository] in
            try await repository.connection(on: $0)
        }
        return JSONBody(WhoopStatus(connected: stored != nil, connectedAt: stored?.connectedAt, lastFetchAt: stored?.lastFetchAt))
    }

    /// Revokes at WHOOP (best effort: the tokens are forgotten either way), forgets the tokens
    /// and writes a tombstone for every WHOOP row, so every device drops the records.
    @Sendable func disconnect(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let connector = try requireConnector()
        let caller = try context.requireCaller()
        do {
            if let client = try await connector.client(userID: caller.userID) { try await client.revoke() }
        } catch {
            logger.warning("WHOOP revoke failed; forgetting the tokens anyway", metadata: ["error": "\(WhoopConnector.describe(error))"])
        }
        try await database.withCaller(caller) { [repository = connector.repository, rows = connector.rows] connection in
            try await repository.deleteConnection(on: connection)
            try await rows.deleteAll(userID: caller.userID, on: connection)
        }
        logger.info("WHOOP disconnected")
        return .noContent
    }

    /// Where WHOOP sends the browser back. Checks the state (known, unused, fresh; used up
    /// now whatever follows), exchanges the code, learns the WHOOP member id, stores the
    /// sealed tokens, then fetches the last 14 days. Nothing is stored on any failure.
    @Sendable func callback(request: Request, context: ServerContext) async throws -> Response {
        let connector = try requireConnector()
        // A HEAD (a link preview, a prefetch) must not use up the single-use state.
        if request.method == .head { return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"]) }
        let query = request.uri.queryParameters
        if query.get("error") != nil { return WhoopPage.refused }
        // WHOOP requires a state of at least 8 characters; ours have 32.
        guard let state = query.get("state"), state.count >= 8 else { return WhoopPage.missingState }
        let repository = connector.repository
        guard let userID = try await database.withoutUser({ try await repository.user(forState: state, on: $0) }) else {
            return WhoopPage.forgedState
        }
        guard let code = query.get("code"), !code.isEmpty else { return WhoopPage.missingCode }
        switch try await database.withUser(userID, { try await repository.use(state: state, on: $0) }) {
        case .expired: return WhoopPage.expiredState
        case .used: return WhoopPage.usedState
        case .valid: break
        }
        let client: WhoopClient
        let member: Int64
        do {
            let tokens = try await WhoopClient.exchange(code: code, configuration: connector.whoop)
            client = connector.client(userID: userID, tokens: tokens)
            member = try await client.profile().userID
            // The client's tokens: a refresh during the profile call would have replaced them.
            let current = await client.tokens
            let sealed = try connector.box.seal(current, for: userID)
            try await database.withUser(userID) {
                try await repository.saveConnection(
                    userID: userID,
                    whoopUserID: member,
                    sealedTokens: sealed,
                    expiresAt: current.expiresAt,
                    on: $0
                )
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            return WhoopPage.taken
        } catch {
            logger.warning("WHOOP connection failed", metadata: ["error": "\(WhoopConnector.describe(error))"])
            return WhoopPage.whoopFailed
        }
        logger.info("WHOOP connected")
        await connector.fetchRecent(userID: userID, client: client)
        return WhoopPage.connected
    }
}
