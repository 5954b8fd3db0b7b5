package import Dispatch

/// Where a check's driver (`CheckSession`) takes its time from. Every reading of time in a check goes
/// through it: the packets' arrival times, the waits to the machine's next deadline, the sample limit,
/// the playlist reloads and `--record-trace`'s request timing. Real checks use `MonotonicCheckClock`; a
/// test gives a clock that moves only when the test moves it, so a whole check over a real file runs in
/// virtual time with exact figures whatever the machine's load.
///
/// Not through it: the bounds on blocking I/O (the `Interrupter`'s `--timeout`, `--all-variants`' budget
/// and its per-request deadlines in `VariantProber`). They bound real calls into libavformat, which block
/// on the real network whatever the check's clock says, so they are wall time by nature.
///
/// Readings are seconds from an origin of the clock's own (only differences count) and never go back.
/// The driver blocks a thread of its own (libavformat's calls block), so sleeping is blocking too.
package protocol CheckClock: Sendable {
    /// The time now, seconds from the clock's origin.
    func now() -> Double

    /// Blocks the calling thread until the clock reads `deadline` or later, or until `alarm` is signalled
    /// (a cancel, the end of the sample), whichever comes first. It may return early: the caller reads
    /// `now()` again and decides.
    func sleep(until deadline: Double, alarm: DispatchSemaphore)

    /// Calls `work` once, on a thread of the clock's choosing, when the clock reads `deadline` or later;
    /// it does not block the caller.
    func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void)
}
