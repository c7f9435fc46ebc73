import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// Builds the server: applies migrations, connects as the app role, wires the routes. The
/// executable and the tests both call it.
public func buildApplication(
    configuration: ServerConfiguration,
    logger: Logger = Logger(label: "wdiet-server")
) async throws -> some ApplicationProtocol {
    try configuration.validate()
    if configuration.mode == .development {
        logger.warning("development mode: the development secrets from the source are allowed; never expose this server")
    }
    try await Migrator(logger: logger).migrate(configuration.migrationDatabaseURL, migrations: try Migrator.bundled())
    let database = ServerDatabase(configuration.databaseURL, maximumConnections: configuration.databaseConnections, logger: logger)
    let tokens = try await TokenService(configuration: configuration)
    let router = buildRouter(configuration: configuration, database: database, tokens: tokens, logger: logger)
    let limits = configuration.connectionLimits
    var app = Application(
        router: router,
        server: .http1(configuration: limits.http1Configuration(logger: logger)),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "wdiet-server",
            availableConnectionsDelegate: limits.availableConnections(logger: logger)
        ),
        logger: logger
    )
    app.addServices(database.client)
    app.addServices(WhoopRefreshService(database: database, configuration: configuration, logger: logger))
    return app
}

func buildRouter(configuration: ServerConfiguration, database: ServerDatabase, tokens: TokenService, logger: Logger) -> Router<ServerContext> {
    // HEAD answers like GET without the body.
    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost first: the durations by route see every answer, because the request log
    // turns errors into responses; the 500 log line inside it carries the request id.
    MetricsExport.bootstrap()
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: ServerErrorMiddleware())
    router.add(middleware: ClientAddressMiddleware(policy: configuration.clientAddress))
    let sessions = Sessions(tokens: tokens, logger: logger)
    let authenticated = BearerAuthenticator(tokens: tokens)

    router.get("/health") { _, _ in JSONBody(["status": "ok"]) }
    // A balancer's check gives up after a few seconds: answer within two.
    router.get("/ready") { _, _ in
        guard await database.isReachable(within: .seconds(2)) else { throw APIError.databaseUnreachable }
        return JSONBody(["status": "ready"])
    }
    router.get("/openapi.json") { _, _ in try OpenAPIDocument.response() }
    router.addMetricsRoute(policy: configuration.metrics)

    AuthController(
        database: database,
        sessions: sessions,
        passwords: Passwords(cost: configuration.bcryptCost, policy: configuration.bcrypt),
        policy: configuration.rateLimit,
        logger: logger
    )
    .addRoutes(to: router, authenticated: authenticated)
    let protected = router.group().add(middleware: authenticated)
    SyncController(database: database, turns: UserTurns(), quota: configuration.quota, logger: logger).addRoutes(to: protected)
    AccountController(database: database, sessions: sessions, logger: logger).addRoutes(to: protected)
    WhoopController(database: database, configuration: configuration, logger: logger).addRoutes(to: router, protected: protected)
    router.add(middleware: UnmatchedRouteMiddleware(router: router, headForGet: true))
    return router
}

/// The committed OpenAPI document, served as it is.
enum OpenAPIDocument {
    static func data() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "Resources") else {
            throw APIError(status: .internalServerError, code: "missing_document", message: "The OpenAPI document is missing.")
        }
        return try Data(contentsOf: url)
    }

    static func response() throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try data())))
    }
}
