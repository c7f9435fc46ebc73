import Foundation
import Hummingbird
import Logging
import ServerConnections

extension ServerConfiguration {
    /// The connection limits of `connections`; trusted proxies (every client comes through
    /// them) have no per-address cap of their own but count toward the maximum.
    var connectionLimits: ConnectionLimits {
        let proxies = clientAddress
        return ConnectionLimits(
            maxConnections: connections.maxConnections,
            maxConnectionsPerAddress: connections.maxConnectionsPerAddress,
            idleTimeout: connections.idleTimeout,
            headerTimeout: connections.headerTimeout,
            bodyTimeout: connections.bodyTimeout,
            isExempt: { proxies.isTrusted($0) }
        )
    }
}
