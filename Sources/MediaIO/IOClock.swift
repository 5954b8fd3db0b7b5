/// Where every wait and deadline of reading media takes its time from: the `Interrupter`'s `--timeout` and
/// its request pace, the resource gate's loop detection, the LL-HLS client's waits, `check`'s driver and
/// its `--all-variants` deadlines. Real runs use `MonotonicIOClock`; a test gives a clock that moves only
/// when the test moves it, so every wait of a run (a check over a real file, a live LL-HLS check) happens
/// in virtual time, and a cancel is seen to end every one of them at once.
///
/// It lives in MediaIO, the lowest module that waits, so that the interrupter and the resource gate take
/// it; `check`'s engine names it `CheckClock`.
///
/// Readings are seconds from an origin of the clock's own (only differences count) and never go back.
/// Callers block a thread of their own (libavformat's calls block), so sleeping is blocking too.
package protocol IOClock: Sendable {
    /// The time now, seconds from the clock's origin.
    func now() -> Double

    /// Blocks the calling thread until the clock reads `deadline` or later, or until `alarm` is raised
    /// (a cancel, the end of the sample), whichever comes first. It may return early: the caller reads
    /// `now()` again and decides.
    func sleep(until deadline: Double, alarm: Alarm)

    /// Calls `work` once, on a thread of the clock's choosing, when the clock reads `deadline` or later;
    /// it does not block the caller.
    func schedule(at deadline: Double, _ work: @escaping @Sendable () -> Void)

    /// The wall clock, Unix seconds: only for what is compared with another machine's clock (a server's
    /// date, program date-times, availability times) or printed as a date. A test's clock derives it from
    /// `now()`.
    func unixTime() -> Double
}
