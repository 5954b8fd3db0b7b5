import Dispatch
package import MediaIO
package import PlaybackModel
import CheckEngine

/// Runs a `ProbeAnalysis` on its own thread, fed in batches by the thread that reads the packets, so
/// that reading a long file costs about what the demuxer costs (the analysis overlaps the next reads)
/// instead of the sum of both.
///
/// The reading thread fills a `Batch` (a slice of storage the worker owns) with packets as the demuxer
/// returned them (`RawPacket`, in time-base ticks) and `submit`s it whole: no lock, no allocation, no
/// reference counting and no conversion per packet on the reading thread. The worker converts them to
/// seconds (`PacketConverter`) and analyses them. At most `depth` batches wait or run at once
/// (`submit` blocks beyond that) and their storage is reused in turn, so memory is `(depth + 1) *
/// capacity` packets whatever the input's length. The analysis sees the packets in read order, exactly
/// as a loop on one thread would.
package final class ProbeAnalysisWorker: @unchecked Sendable {
    // @unchecked: `analysis` is touched only by blocks on the serial `queue` and by `finish()` after it
    // drained the queue; a batch's storage is written by the reading thread before `submit` and read by
    // the queue after it (the semaphore and the queue order the two); everything else is immutable.

    /// Packets read since the last hand-over, and what happened on the reading side meanwhile. Belongs
    /// to the reading thread until `submit`.
    package struct Batch {
        // Which of the worker's `depth + 1` slices this batch fills.
        fileprivate let slice: Int
        fileprivate let storage: UnsafeMutablePointer<RawPacket>
        /// Packets in the batch.
        package private(set) var count = 0
        /// Streams the demuxer added before these packets, in index order.
        package var newStreams: [StreamInfo] = []
        /// Set to ask for a progress call once these packets are analysed: the input's byte position
        /// then (`nil` when not known or not meaningful).
        package var progress: Int64?? = nil

        fileprivate init(slice: Int, storage: UnsafeMutablePointer<RawPacket>) {
            self.slice = slice
            self.storage = storage
        }

        /// Whether the batch holds `ProbeAnalysisWorker.capacity` packets and must be submitted.
        package var isFull: Bool { count == ProbeAnalysisWorker.capacity }

        /// Appends a packet; the batch must not be full.
        package mutating func append(_ packet: RawPacket) {
            // A caller contract: the loop submits a full batch before appending again.
            precondition(count < ProbeAnalysisWorker.capacity, "append to a full batch")
            (storage + count).initialize(to: packet)
            count += 1
        }
    }

    /// Packets per batch: large enough that a hand-over costs nothing next to the packets, small enough
    /// to stay in the cache (48 bytes a packet).
    package static let capacity = 4096
    /// Batches in flight at once.
    static let depth = 2

    private var analysis: ProbeAnalysis
    private var converter: PacketConverter
    private let queue = DispatchQueue(label: "bufprobe.probe-analysis")
    private let slots = DispatchSemaphore(value: ProbeAnalysisWorker.depth)
    // `depth + 1` slices of `capacity` packets, used in turn: while the reading thread fills one, at most
    // `depth` others are in flight, and the queue finishes them in submission order.
    private let storage: UnsafeMutablePointer<RawPacket>
    private let onProgress: (@Sendable (TimeRanges, Int64?) -> Void)?

    /// A worker that owns `analysis` until `finish()` and converts the packets with `converter` (the
    /// input's `makePacketConverter()`, taken before the first read); `onProgress` is called on the
    /// worker's thread with the playable loaded ranges and the byte position of a batch that asked for
    /// progress.
    package init(
        analysis: ProbeAnalysis, converter: PacketConverter, onProgress: (@Sendable (TimeRanges, Int64?) -> Void)?
    ) {
        self.analysis = analysis
        self.converter = converter
        self.onProgress = onProgress
        storage = .allocate(capacity: (Self.depth + 1) * Self.capacity)
    }

    deinit {
        // Packets are plain values (no references): the memory needs no deinitialization.
        storage.deallocate()
    }

    /// The first batch to fill.
    package func firstBatch() -> Batch { Batch(slice: 0, storage: storage) }

    /// Hands `batch` to the analysis thread and returns the next one to fill; waits while `depth`
    /// batches are still in flight.
    package func submit(_ batch: Batch) -> Batch {
        let next = (batch.slice + 1) % (Self.depth + 1)
        let offset = batch.slice * Self.capacity
        let count = batch.count
        let newStreams = batch.newStreams
        let progress = batch.progress
        slots.wait()
        queue.async { [self] in
            let packets = UnsafeBufferPointer(start: storage + offset, count: count)
            // The state goes to the loop inout, once per batch: touched per packet through `self`, each
            // access would be checked for exclusivity at run time.
            Self.analyse(packets, newStreams: newStreams, analysis: &analysis, converter: &converter)
            if let bytes = progress { onProgress?(analysis.tracker.playable, bytes) }
            slots.signal()
        }
        return Batch(slice: next, storage: storage + next * Self.capacity)
    }

    /// Converts and analyses one batch, in order.
    private static func analyse(
        _ packets: UnsafeBufferPointer<RawPacket>, newStreams: [StreamInfo], analysis: inout ProbeAnalysis,
        converter: inout PacketConverter
    ) {
        if !newStreams.isEmpty {
            analysis.addStreams(newStreams.map { $0.type == .video })
            for stream in newStreams { converter.addStream(timeBase: stream.timeBase) }
        }
        for packet in packets { analysis.add(converter.packet(packet)) }
    }

    /// Submits `batch` (the last one), waits for every batch and returns the analysis. Call once.
    package func finish(_ batch: Batch) -> ProbeAnalysis {
        _ = submit(batch)
        return queue.sync { analysis }
    }
}
