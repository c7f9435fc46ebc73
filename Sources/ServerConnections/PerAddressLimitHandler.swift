import Logging
import NIOCore

/// Admits a new connection while its client address holds fewer than the limit, and closes
/// it at once otherwise, before any byte of it is read. One instance per connection; the
/// counts are the server's.
final class PerAddressLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let counts: ConnectionsPerAddress
    private let isExempt: @Sendable (String) -> Bool
    private let logger: Logger
    /// The address this connection is counted under, until it closes.
    private var counted: String?
    private var decided = false

    init(counts: ConnectionsPerAddress, isExempt: @escaping @Sendable (String) -> Bool, logger: Logger) {
        self.counts = counts
        self.isExempt = isExempt
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        if context.channel.isActive { context.fireChannelActive() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        // a peer without an IP address (a Unix socket) is not a network client
        guard let address = context.channel.remoteAddress?.ipAddress.map(Self.normalized), !isExempt(address) else { return }
        switch counts.open(address) {
        case .admitted:
            counted = address
        case .refused(let first):
            if first {
                logger.notice(
                    "connections from one address at the limit: further ones are closed at once until one of its connections ends",
                    metadata: ["client": .string(address), "limit": .stringConvertible(counts.limit)]
                )
            }
            context.close(promise: nil)
        }
    }

    private func release() {
        guard let address = counted else { return }
        counted = nil
        counts.close(address)
    }

    /// One spelling per client: an IPv4-mapped IPv6 address (a dual-stack socket's peer) as IPv4.
    static func normalized(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.contains(".") { return String(lowered.dropFirst(7)) }
        return lowered
    }
}

@available(*, unavailable)
extension PerAddressLimitHandler: Sendable {}
