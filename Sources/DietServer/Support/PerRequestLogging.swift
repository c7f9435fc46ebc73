import Hummingbird
import Logging

/// A controller whose handlers log, and query the database, through the request's logger, so
/// every line a request causes (the database driver's too) carries its id (`hb.request.id`,
/// set by `RequestLogMiddleware`).
protocol PerRequestLogging: Sendable {
    /// This controller, logging to `logger`.
    func logging(to logger: Logger) -> Self
}

extension PerRequestLogging {
    /// `handler` run on a copy of this controller that logs to the request's logger.
    func perRequest<Output>(
        _ handler: @escaping @Sendable (Self) -> @Sendable (Request, ServerContext) async throws -> Output
    ) -> @Sendable (Request, ServerContext) async throws -> Output {
        { request, context in try await handler(logging(to: context.logger))(request, context) }
    }
}
