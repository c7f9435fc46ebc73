import Foundation
import Hummingbird
import Logging
import PostgresNIO

/// Turns an unexpected failure into the API's 500 body and logs it with the request id (the
/// logger's `hb.request.id`), the method, the path and the kind of error: never the body,
/// the query string or a header, which could hold health values or tokens.
struct ServerErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            // 503s are expected answers (busy, not configured, database away), not failures.
            if error.status == .internalServerError { log(error, status: error.status.code, request: request, context: context) }
            throw error
        } catch {
            log(error, status: 500, request: request, context: context)
            let reference = context.logger[metadataKey: "hb.request.id"].map { " (request \($0))" } ?? ""
            throw APIError(
                status: .internalServerError,
                code: "internal_error",
                message: "Something went wrong on the server\(reference); it has been logged."
            )
        }
    }

    private func log(_ error: any Error, status: Int, request: Request, context: ServerContext) {
        var metadata: Logger.Metadata = [
            "status": "\(status)", "method": "\(request.method.rawValue)", "path": "\(request.uri.path)",
            "error": "\(type(of: error))",
        ]
        if let error = error as? PSQLError {
            metadata["sql_state"] = error.sqlState.map { "\($0)" }
            metadata["psql_code"] = "\(error.code)"
        }
        context.logger.error("request failed", metadata: metadata)
    }
}

/// Answers a request no route takes with the API's error body: 405 with `Allow` when the
/// path exists with other methods, 404 otherwise. Added after every route, so it wraps only
/// the router's not-found responder.
struct UnmatchedRouteMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// The routes' paths split at "/", a "{name}" segment matching any one segment.
    let routes: [(segments: [Substring], method: HTTPRequest.Method)]

    init(router: Router<ServerContext>, headForGet: Bool) {
        routes = router.routes.flatMap { route in
            let segments = route.path.description.split(separator: "/")
            return [(segments, route.method)] + (headForGet && route.method == .get ? [(segments, .head)] : [])
        }
    }

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path.split(separator: "/")
            let methods = routes.filter { route in
                route.segments.count == path.count && zip(route.segments, path).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }.map(\.method.rawValue)
            guard !methods.isEmpty else { throw APIError.notFound("The path \(request.uri.path.prefix(100))") }
            throw APIError(
                status: .methodNotAllowed,
                code: "method_not_allowed",
                message: "\(request.method.rawValue) is not allowed here; use \(methods.joined(separator: " or ")).",
                headers: [.allow: Set(methods).sorted().joined(separator: ", ")]
            )
        }
    }
}
