import Synchronization

/// Delivers a `Player`'s observation events as an `AsyncStream` and to callbacks: the periodic time
/// observer (every `Player.timeObserverInterval` of clock time, 0.5 s by default), state changes and
/// actions, each carrying clock time and media time. Time is injected: events happen at the clock times
/// the driver passed to the player, and reach observers when the driver calls `deliver`.
///
/// Typical driver loop: `let actions = player.advance(to: now); observer.deliver(player.takeEvents())`.
public final class PlayerObserver: Sendable {
    /// Every delivered event, in order. Keeps the newest `bufferLimit` events when nobody is reading.
    public let events: AsyncStream<PlayerEvent>
    private let continuation: AsyncStream<PlayerEvent>.Continuation
    private let callbacks = Mutex<[@Sendable (PlayerEvent) -> Void]>([])

    /// Creates an observer whose stream buffers at most `bufferLimit` unread events.
    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(
            of: PlayerEvent.self, bufferingPolicy: .bufferingNewest(Swift.max(1, bufferLimit)))
    }

    deinit {
        continuation.finish()
    }

    /// Calls `callback` with every event delivered from now on, on the delivering thread.
    public func onEvent(_ callback: @escaping @Sendable (PlayerEvent) -> Void) {
        callbacks.withLock { $0.append(callback) }
    }

    /// Calls `callback` with media time and clock time at every periodic time event.
    public func onPeriodicTime(_ callback: @escaping @Sendable (_ mediaTime: Double, _ clockTime: Double) -> Void) {
        onEvent { event in
            if case .periodic = event.kind { callback(event.mediaTime, event.clockTime) }
        }
    }

    /// Calls `callback` with every state change (the event's `state` is the new state).
    public func onStateChange(_ callback: @escaping @Sendable (_ from: PlayerState, _ event: PlayerEvent) -> Void) {
        onEvent { event in
            if case .stateChanged(let from) = event.kind { callback(from, event) }
        }
    }

    /// Passes `events` to the stream and the callbacks, in order.
    public func deliver(_ events: [PlayerEvent]) {
        let current = callbacks.withLock { $0 }
        for event in events {
            continuation.yield(event)
            for callback in current { callback(event) }
        }
    }

    /// Drains `player`'s outbox and delivers it.
    public func deliver(from player: inout Player) {
        deliver(player.takeEvents())
    }

    /// Ends the stream; callbacks stay registered.
    public func finish() {
        continuation.finish()
    }
}
