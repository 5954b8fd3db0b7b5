package import MediaIO

/// Where a check takes its time from: MediaIO's `IOClock`, under the name the check's types use. Every
/// reading of time and every wait in a check goes through it: the packets' arrival times, the waits to the
/// machine's next deadline, the sample limit, `--rate`'s pacing, the playlist reloads, `--record-trace`'s
/// request timing, the LL-HLS client's waits, and, through the check's `Interrupter` (made on this clock,
/// its children inheriting it), `--timeout`, the request pace, the loop detection and `--all-variants`'
/// budget and per-request deadlines (`VariantProber.RequestDeadline`). The wall clock (the report's start,
/// program date-times, a DASH server's time) is the clock's `unixTime()`.
///
/// Real checks use `MonotonicIOClock`; a test gives a clock that moves only when the test moves it, so a
/// whole check over a real file, or a live LL-HLS check, runs in virtual time with exact figures whatever
/// the machine's load. A cancel raises the check's `Interrupter`'s `Alarm`, which ends every wait at once.
package typealias CheckClock = IOClock
