import Dispatch
package import MediaIO

/// What a `PacketWorker` feeds: a value that takes the packets of one input in read order.
package protocol PacketConsumer: Sendable {
    /// Takes the streams the demuxer added while reading, in index order, before their first packet.
    mutating func addStreams(_ streams: [StreamInfo])
    /// Takes the next packet in read order.
    mutating func add(_ packet: Packet)
}

/// Runs a `PacketConsumer` (probe's `ProbeAnalysis`, simulate's unit builder) on its own thread, fed in
/// batches by the thread that reads the packets, so that reading a long file costs about what the
/// demuxer costs (the consumer overlaps the next reads) instead of the sum of both.
///
/// The reading thread fills a `Batch` (a slice of storage the worker owns) with packets as the demuxer
/// returned them (`RawPacket`, in time-base ticks) and `submit`s it whole: no lock, no allocation, no
/// reference counting and no conversion per packet on the reading thread. The worker converts them to
/// seconds (`PacketConverter`) and hands them to the consumer. At most `depth` batches wait or run at
/// once (`submit` blocks beyond that) and their storage is reused in turn, so memory is `(depth + 1) *
/// capacity` packets whatever the input's length. The consumer sees the packets in read order, exactly
/// as a loop on one thread would.
package final class PacketWorker<Consumer: PacketConsumer>: @unchecked Sendable {
    // @unchecked: `consumer` is touched only by blocks on the serial `queue` and by `finish()` after it
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

        /// Whether the batch holds `PacketWorker.capacity` packets and must be submitted.
        package var isFull: Bool { count == PacketWorker.capacity }

        /// Appends a packet; the batch must not be full.
        package mutating func append(_ packet: RawPacket) {
            // A caller contract: the loop submits a full batch before appending again.
            precondition(count < PacketWorker.capacity, "append to a full batch")
            (storage + count).initialize(to: packet)
            count += 1
        }
    }

    /// Packets per batch: large enough that a hand-over costs nothing next to the packets, small enough
    /// to stay in the cache (48 bytes a packet).
    package static var capacity: Int { 4096 }
    /// Batches in flight at once.
    static var depth: Int { 2 }

    // `nil` once `finish()` handed it over, so the caller holds the only copy (its arrays unshared).
    private var consumer: Consumer?
    private var converter: PacketConverter
    private let queue = DispatchQueue(label: "bufprobe.packet-worker")
    private let slots = DispatchSemaphore(value: PacketWorker.depth)
    // `depth + 1` slices of `capacity` packets, used in turn: while the reading thread fills one, at most
    // `depth` others are in flight, and the queue finishes them in submission order.
    private let storage: UnsafeMutablePointer<RawPacket>
    private let onProgress: (@Sendable (Consumer, Int64?) -> Void)?

    /// A worker that owns `consumer` until `finish()` and converts the packets with `converter` (the
    /// input's `makePacketConverter()`, taken before the first read); `onProgress` is called on the
    /// worker's thread with the consumer and the byte position of a batch that asked for progress.
    package init(consumer: Consumer, converter: PacketConverter, onProgress: (@Sendable (Consumer, Int64?) -> Void)? = nil) {
        self.consumer = consumer
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

    /// Hands `batch` to the worker's thread and returns the next one to fill; waits while `depth`
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
            Self.consume(packets, newStreams: newStreams, consumer: &consumer!, converter: &converter)
            if let bytes = progress, let consumer { onProgress?(consumer, bytes) }
            slots.signal()
        }
        return Batch(slice: next, storage: storage + next * Self.capacity)
    }

    /// Converts one batch and hands it to the consumer, in order.
    private static func consume(
        _ packets: UnsafeBufferPointer<RawPacket>, newStreams: [StreamInfo], consumer: inout Consumer,
        converter: inout PacketConverter
    ) {
        if !newStreams.isEmpty {
            consumer.addStreams(newStreams)
            for stream in newStreams { converter.addStream(timeBase: stream.timeBase) }
        }
        for packet in packets { consumer.add(converter.packet(packet)) }
    }

    /// Submits `batch` (the last one), waits for every batch and returns the consumer. Call once.
    package func finish(_ batch: Batch) -> Consumer {
        _ = submit(batch)
        return queue.sync {
            defer { consumer = nil }
            return consumer!
        }
    }
}
