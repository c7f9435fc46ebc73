import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

extension ConnectionPolicy {
    /// HTTP/1.1 with the idle timeout (which also bounds how long request headers may take:
    /// until they are complete the connection counts as idle) and the body deadline.
    var server: HTTPServerBuilder {
        let bodyTimeout = TimeAmount.milliseconds(Int64(bodyTimeout * 1000))
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [RequestDeadlineHandler(timeout: bodyTimeout)],
                idleTimeout: .milliseconds(Int64(idleTimeout * 1000))
            )
        )
    }

    /// Past the maximum, the server stops accepting until a connection closes (waiting
    /// clients queue in the listen backlog), so clients cannot exhaust its file descriptors.
    func availableConnections(logger: Logger) -> any AvailableConnectionsDelegate {
        MaximumAvailableConnections(maxConnections, logger: logger)
    }
}

/// Closes a connection whose request body is not complete `timeout` after its headers: a
/// client trickling a body a byte at a time would otherwise hold the connection for ever (the
/// idle timeout restarts with every byte).
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
