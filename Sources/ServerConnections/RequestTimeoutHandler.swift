import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request headers are not complete `headerTimeout` after it opened
/// (or after the first bytes of a later request arrived), and one whose request body is not
/// complete `bodyTimeout` after its headers. The idle timeout alone does not bound them: a
/// client trickling a byte at a time keeps a connection from ever being idle.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount?
    private var deadline: Scheduled<Void>?
    /// Requests whose headers were read and whose response has not ended.
    private var requestsOpen = 0
    private var started = false

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount?) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsOpen += 1
            cancel()
            if let bodyTimeout { schedule(context, in: bodyTimeout) }
        case .end:
            cancel()
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    /// Bytes arrived: with no request open and no deadline running they begin a new request,
    /// whose headers now have `headerTimeout` to complete (a complete head read in the same
    /// read has already opened its request).
    func channelReadComplete(context: ChannelHandlerContext) {
        if requestsOpen == 0, deadline == nil { schedule(context, in: headerTimeout) }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { requestsOpen = max(0, requestsOpen - 1) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        schedule(context, in: headerTimeout)
    }

    private func schedule(_ context: ChannelHandlerContext, in timeout: TimeAmount) {
        cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            deadline = nil
            context.close(promise: nil)
        }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestTimeoutHandler: Sendable {}
