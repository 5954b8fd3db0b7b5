/// Why a manifest's `UTCTiming` gave no clock: `reason` completes "<manifest> gives no usable clock: ...".
public struct UTCTimingError: Error, Sendable, Hashable {
    /// The sentence's end.
    public var reason: String
}
