extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) / 1e18
    }

    /// `seconds` as a duration to the millisecond, for timeouts and budgets. Brought into 0...7 days (the
    /// `Seconds` grammar's bound; NaN counts as 0) before the conversion, so no value can trap it.
    package static func bounded(seconds: Double) -> Duration {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), Seconds.maximum)
        return .milliseconds(Int64((clamped * 1000).rounded()))
    }
}
