import Foundation
import Hummingbird
import Logging

/// The server's WHOOP endpoints (`WhoopPaths`): connect, callback, status, disconnect and the
/// webhook. Filled in by the WHOOP-on-the-server work.
struct WhoopController: Sendable {
    let database: ServerDatabase
    let configuration: ServerConfiguration
    let logger: Logger

    func addRoutes(to router: Router<ServerContext>, protected: RouterGroup<ServerContext>) {}
}
