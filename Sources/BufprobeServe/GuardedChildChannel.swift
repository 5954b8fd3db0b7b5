package import HummingbirdCore
package import Logging
package import NIOCore

/// A server child channel (Hummingbird's HTTP/1 one, or a TLS one around it) whose connections are
/// bounded by `ClientConnections`: each accepted connection is admitted or refused at once, and an
/// admitted one is watched (`ClientConnectionWatch`) from its first byte to its close.
///
/// Hummingbird's own cap (`MaximumAvailableConnections`) stops accepting when it is reached, so a few
/// connections that never send a request lock every other client out, `/metrics` included; this one keeps
/// accepting and closes instead.
package struct GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    /// The base channel's value (Hummingbird's `NIOAsyncChannel` of HTTP parts).
    package typealias Value = Base.Value

    /// The channel that speaks HTTP.
    package let base: Base
    /// The connections open, and the limits.
    package let connections: ClientConnections

    /// Bounds `base`'s connections by `connections`.
    package init(base: Base, connections: ClientConnections) {
        self.base = base
        self.connections = connections
    }

    /// Admits or refuses the connection, then sets up the base channel. It never fails for a refused
    /// connection (NIO would end the server's accept loop on a failed initializer): the channel is set up
    /// and closed at once.
    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let admission = connections.open(address: address) { channel.close(promise: nil) }
        guard case .admitted(let id) = admission else {
            return base.setup(channel: channel, logger: logger).map { value in
                channel.close(promise: nil)
                return value
            }
        }
        let watch = ClientConnectionWatch(id: id, connections: connections, channel: channel)
        do {
            try channel.pipeline.syncOperations.addHandler(ClientBytesHandler(watch: watch), position: .first)
        } catch {
            watch.closed()
            channel.close(promise: nil)
        }
        return base.setup(channel: channel, logger: logger).assumeIsolated().map { value in
            // Between the HTTP codec and Hummingbird's connection handler, which every HTTP/1 pipeline has.
            let operations = channel.pipeline.syncOperations
            do {
                let next = try operations.handler(type: HTTPConnectionStateHandler.self)
                try operations.addHandler(ClientRequestHandler(watch: watch), position: .before(next))
            } catch {
                // Without the handler no request would count as one: the header deadline would close
                // every connection, so refuse this one plainly.
                channel.close(promise: nil)
            }
            return value
        }.nonisolated()
    }

    /// Handles the connection as the base channel does.
    package func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
