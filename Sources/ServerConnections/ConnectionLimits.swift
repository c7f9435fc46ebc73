import Foundation
import HummingbirdCore
import Logging
import NIOCore

/// How many connections a server holds and how long a slow client may keep one, shared by
/// `wdiet serve` and `wdiet-server`: a global maximum (past it the server stops accepting and
/// new connections wait in the listen backlog), a maximum per client address (past it a new
/// connection from that address is closed at once, so one address cannot take the global
/// maximum for itself), and the idle, header and body timeouts.
public struct ConnectionLimits: Sendable {
    /// Open connections in all.
    public var maxConnections: Int
    /// Open connections from one address; addresses `isExempt` names count toward
    /// `maxConnections` only.
    public var maxConnectionsPerAddress: Int
    /// An idle connection is closed after this (Hummingbird's idle timeout: no request part
    /// read and no response in progress).
    public var idleTimeout: TimeInterval
    /// Request headers must be complete this long after the connection opened, or after the
    /// first bytes of a later request on it arrived.
    public var headerTimeout: TimeInterval
    /// A request body must be complete this long after its headers; nil: no deadline.
    public var bodyTimeout: TimeInterval?
    /// Peers without a cap of their own (a trusted reverse proxy: every client comes through
    /// it). Gets the address as `SocketAddress.ipAddress` spells it, IPv4-mapped IPv6 as IPv4.
    public var isExempt: @Sendable (String) -> Bool

    public init(
        maxConnections: Int,
        maxConnectionsPerAddress: Int,
        idleTimeout: TimeInterval,
        headerTimeout: TimeInterval,
        bodyTimeout: TimeInterval? = nil,
        isExempt: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.isExempt = isExempt
    }

    /// HTTP/1.1 with these limits: the per-address gate and the header and body deadlines in
    /// every connection's pipeline (one count shared by all of this server's connections), and
    /// the idle timeout.
    public func http1Configuration(logger: Logger) -> HTTP1Channel.Configuration {
        let counts = ConnectionsPerAddress(limit: maxConnectionsPerAddress)
        let isExempt = isExempt
        let header = Self.amount(headerTimeout)
        let body = bodyTimeout.map(Self.amount)
        return .init(
            additionalChannelHandlers: [
                PerAddressLimitHandler(counts: counts, isExempt: isExempt, logger: logger),
                RequestTimeoutHandler(headerTimeout: header, bodyTimeout: body),
            ],
            idleTimeout: Self.amount(idleTimeout)
        )
    }

    /// Past `maxConnections` the server stops accepting until a connection closes, so clients
    /// cannot exhaust its file descriptors.
    public func availableConnections(logger: Logger) -> any AvailableConnectionsDelegate {
        MaximumAvailableConnections(maxConnections, logger: logger)
    }

    static func amount(_ seconds: TimeInterval) -> TimeAmount {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
