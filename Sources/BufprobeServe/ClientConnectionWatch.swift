import NIOCore
import NIOHTTPTypes

/// One client connection's deadlines, confined to its event loop: the complete request head within
/// `headerTimeout` of the accept (a new connection) or of the first byte of a later request (keep-alive),
/// and the next request within `idleTimeout` of the last response. A request in progress has no deadline
/// here: the check's own budget bounds it. Told what happens by `ClientBytesHandler` (bytes arrived, at the
/// head of the pipeline) and `ClientRequestHandler` (a request head decoded, a response ended).
final class ClientConnectionWatch {
    private let id: Int
    private let connections: ClientConnections
    private let channel: any Channel
    private var requests = 0
    /// Waiting between requests with no byte of the next one yet.
    private var betweenRequests = false
    private var deadline: Scheduled<Void>?

    /// Starts watching a connection `connections` admitted as `id`: its first request head is due within
    /// the header timeout.
    init(id: Int, connections: ClientConnections, channel: any Channel) {
        self.id = id
        self.connections = connections
        self.channel = channel
        schedule(after: connections.limits.headerTimeout, reason: .headerTimeout)
    }

    /// Bytes arrived from the client.
    func bytesArrived() {
        guard requests == 0, betweenRequests else { return }
        betweenRequests = false
        schedule(after: connections.limits.headerTimeout, reason: .headerTimeout)
    }

    /// A complete request head was decoded.
    func headArrived() {
        requests += 1
        betweenRequests = false
        deadline?.cancel()
        deadline = nil
        connections.busy(id)
    }

    /// The end of a response was written.
    func responseEnded() {
        requests = max(0, requests - 1)
        guard requests == 0 else { return }
        betweenRequests = true
        connections.waiting(id)
        schedule(after: connections.limits.idleTimeout, reason: .idleTimeout)
    }

    /// The connection closed, for whatever reason.
    func closed() {
        deadline?.cancel()
        deadline = nil
        connections.closed(id)
    }

    private func schedule(after seconds: Double, reason: ClientConnections.CloseReason) {
        deadline?.cancel()
        // The limits were validated as a few seconds to an hour; the fallback only keeps the conversion total.
        let nanoseconds = Int64(exactly: (seconds * 1e9).rounded()) ?? 10_000_000_000
        deadline = channel.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [self] in
            deadline = nil
            guard requests == 0 else { return }
            connections.closed(id, reason: reason)
            channel.close(promise: nil)
        }
    }
}

/// The first handler of a client connection's pipeline: every byte the client sends, before any decoding.
final class ClientBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let watch: ClientConnectionWatch

    init(watch: ClientConnectionWatch) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        watch.bytesArrived()
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.closed()
        context.fireChannelInactive()
    }
}

/// Right after the HTTP codec: request heads decoded and responses ended.
final class ClientRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let watch: ClientConnectionWatch

    init(watch: ClientConnectionWatch) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { watch.headArrived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { watch.responseEnded() }
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension ClientBytesHandler: Sendable {}

@available(*, unavailable)
extension ClientRequestHandler: Sendable {}
