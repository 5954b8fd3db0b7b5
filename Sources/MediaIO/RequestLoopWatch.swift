/// The resource gate's loop rule, on times it is given (the interrupter's clock): a URL requested
/// `ResourceLimits.loopRequests` times within one second is requested in a loop (a playlist that lists
/// itself, or two that list each other), when it is a playlist. Remembers the last second's requests of at
/// most about 4096 URLs.
struct RequestLoopWatch: Sendable {
    /// Recent request times per URL, seconds on the caller's clock.
    private var recent: [String: [Double]] = [:]

    /// Records a request of `url` at `now`; whether it is the `ResourceLimits.loopRequests`-th (or a later)
    /// request of it within a second.
    mutating func record(_ url: String, at now: Double) -> Bool {
        var times = recent[url, default: []].filter { now - $0 < 1 }
        times.append(now)
        recent[url] = times
        if recent.count > 4096 {
            recent = recent.filter { now - ($0.value.last ?? now) < 1 }
        }
        return times.count >= ResourceLimits.loopRequests
    }
}
