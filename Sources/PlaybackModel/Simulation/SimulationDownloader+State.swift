/// The downloader's connection state and the request in flight, as types.
extension SimulationDownloader {
    /// What the connection is doing.
    enum State: Sendable {
        /// No request and no open connection: nothing asked yet, a segment or a head/index range request
        /// stopped, or every unit in.
        case idle
        /// A progressive file's connection is open with loading stopped: resuming costs no new latency and
        /// goes on from `deliveredEnd`.
        case open
        /// A request is in flight (`fetch`).
        case fetching
        /// The unit the request (`fetch`) was bringing arrived and is being handed to the player; then the
        /// request goes on to the next unit (progressive) or the next segment's request goes out (segmented).
        case delivering
    }

    /// One request in flight.
    struct Fetch: Sendable {
        /// What the request brings.
        enum Purpose: Sendable {
            /// Media units, counted from byte `origin` (where this request, or this stretch of an open
            /// connection, started).
            case media(origin: Int64)
            /// Bytes of which nothing plays and a part is of no use: a progressive file's head or index
            /// (range requests), or a variant's initialization segment.
            case prelude(bytes: Int64)
        }
        /// What the request brings.
        var purpose: Purpose
        /// The data flow, walked forward to the latest completion worked out.
        var flow: NetworkModel.Transfer
        /// The flow as it was before that walk: anchored at or before the clock, it answers "bits so far".
        var sample: NetworkModel.Transfer
        /// Session time at which the unit (or the prelude) in flight has arrived.
        var completion: Double
        /// Session times the media request was sent and its first byte may flow (the ABR's samples).
        var sentAt: Double, firstByteAt: Double
        /// Session time of the next abandonment check (`infinity`: none).
        var abandonCheck: Double
        /// Session time its bytes may start to flow (after the latency): from then on it shares the link.
        var flowStart: Double
    }
}
