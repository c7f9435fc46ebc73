import Foundation
import Hummingbird

/// Lets a request through only with a validly signed, unexpired access token and records the
/// caller in the context. Whether its session is still live is checked inside the handler's
/// own transaction (`ServerDatabase.withCaller`).
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = ServerContext

    let tokens: TokenService

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
            let caller = await tokens.verifyAccessToken(String(header.dropFirst(7)).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw APIError.unauthorized }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }
}
