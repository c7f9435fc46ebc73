import Foundation
import Hummingbird

/// Lets a request through only with a valid access token of a live session, and records the
/// caller in the context.
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = ServerContext

    let tokens: TokenService
    let sessions: Sessions
    let database: ServerDatabase

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
              let caller = await tokens.verifyAccessToken(String(header.dropFirst(7)).trimmingWhitespace)
        else { throw APIError.unauthorized }
        let live = try await database.withUser(caller.userID) { [sessions] connection in
            try await sessions.isLive(caller, on: connection)
        }
        guard live else { throw APIError.unauthorized }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }
}
