extension SimulationDownloader {
    /// A media request in flight as the abandonment rule judges it.
    struct Progress: Sendable {
        /// Bits of this request arrived by now.
        var arrivedBits: Double
        /// Seconds since its first byte could flow.
        var elapsed: Double
        /// Bits the request brings in all.
        var requestBits: Double
        /// Seconds from sending it to its first byte.
        var latency: Double
    }

    /// What `complete(at:)` brought.
    enum Arrival: Sendable {
        /// A progressive file's head or index; the next request has gone out.
        case prelude
        /// The initialization segment of `variant`, of `bytes`; the segment's request has gone out.
        case initialization(variant: Int, bytes: Int64)
        /// Unit `index`: `bytes` of its request (from the unit's first byte), `transfer` seconds from the
        /// request's first byte to its last, `latency` seconds to its first byte. The downloader is
        /// `delivering` until `continueAfterDelivery(at:)`, `requestSegment(at:)` or `finish()`.
        case unit(index: Int, unit: SimulationMedia.Unit, bytes: Int64, transfer: Double, latency: Double)
    }
}
