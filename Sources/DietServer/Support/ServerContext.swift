import Foundation
import Hummingbird
import NIOCore

/// The request context: the caller's address (for the sign-in rate limit) and, once the
/// bearer token is verified, who is calling.
struct ServerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    var caller: Caller?
    /// The address the rate limits count: the peer, or behind a trusted proxy the client it
    /// names (set by `ClientAddressMiddleware`).
    var clientAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        caller = nil
        clientAddress = remoteAddress?.ipAddress ?? "unknown"
    }

    /// The verified caller; 401 if the route was reached without one.
    func requireCaller() throws -> Caller {
        guard let caller else { throw APIError.unauthorized }
        return caller
    }
}

/// A verified access token: the user and the session (device) it belongs to.
struct Caller: Sendable, Hashable {
    let userID: UUID
    let sessionID: UUID
}
