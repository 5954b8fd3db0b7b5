import Foundation

/// Waits (polling every 10 ms of real time) until `condition` holds, at most `patience` seconds; whether it
/// came. A guard against a hang while a test waits for another thread to reach a state it can observe (a
/// thread asleep on a `ManualClock`), not a timing figure: the test fails on `false`, whatever the machine's load.
public func eventually(patience: Double = 30, _ condition: () -> Bool) -> Bool {
    let end = Date(timeIntervalSinceNow: patience)
    while !condition() {
        if Date() >= end { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}
