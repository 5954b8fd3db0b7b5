import Synchronization

/// A clock the test moves by hand, for the live line's `now`.
final class TestClock: Sendable {
    private let seconds = Mutex(0.0)

    /// The current time.
    var now: Double { seconds.withLock { $0 } }

    /// Moves the clock to `time`.
    func set(_ time: Double) { seconds.withLock { $0 = time } }

    /// A `now` closure reading this clock.
    var closure: @Sendable () -> Double { { self.now } }
}

/// A terminal width the test can change, as after SIGWINCH.
final class TestWidth: Sendable {
    private let columns: Mutex<Int>
    init(_ columns: Int) { self.columns = Mutex(columns) }
    func set(_ value: Int) { columns.withLock { $0 = value } }
    var closure: @Sendable () -> Int { { self.columns.withLock { $0 } } }
}
