import Foundation
import InputReading
import MediaIO
package import PlaybackModel

/// A simulation of a single file run beside the reading of the file, on a thread of its own, instead of
/// after it: the engine takes each unit as soon as it is read (`SimulationUnitFeed`), so a long file costs
/// about what reading it costs, not reading plus simulating (the read keeps one core busy and leaves the
/// other mostly idle).
///
/// The engine needs the media's unit count, start, end and size before its first step, and those are
/// known only once every packet is read. The run therefore starts from what the container's header
/// declares (`guess`): frame counts, stream starts and ends, the file's size and where its index lies.
/// Once the file is read, `engine(for:)` keeps the run only when the loaded media matches it exactly:
/// the same figures and every unit identical. Otherwise (a header that is off by a frame or a tick, a
/// packet with no timestamp, packets out of byte order, a seek, which needs every seek point) the caller
/// runs the engine again on the loaded media, as without this. The output is the same either way.
package final class SimulationRunAhead: Sendable {
    /// The units as they are read.
    let feed: SimulationUnitBuffer
    /// The media the run was given: the header's figures over `feed`.
    let media: SimulationMedia
    /// The run's thread; its result is the finished engine.
    private let run: BlockingThread.Handle<SimulationEngine>

    /// What an MP4/MOV (or any input whose header declares them) says before its packets are read, as
    /// the loaded media would have it (`SimulationMedia.ProgressiveBuilder.finish`); `nil` when the header
    /// does not say enough: a stream without a frame count or an end, no size, or an MP4 whose boxes could
    /// not be read (`boxes` `nil`: only its packets would show whether its index follows the media).
    static func guess(
        _ opened: MediaInput, boxes: MP4BoxLayout?, download: DownloadMode
    ) -> (unitCount: Int, playable: [Int], start: Double, end: Double, totalBytes: Int64, layout: DownloadLayout)? {
        // Where the index lies, by `SimulationSource.load`'s own rule.
        let indexAtEnd: (offset: Int64, size: Int64)?
        if let boxes {
            indexAtEnd = IndexAtEnd.fromBoxes(boxes)
        } else if ContainerFormat(demuxer: opened.format.name).isMP4Family {
            return nil
        } else {
            indexAtEnd = nil
        }
        guard let size = opened.format.size, !opened.streams.isEmpty else { return nil }
        var count = 0
        for stream in opened.streams {
            // Every stream's packets become units, played or not.
            guard let frames = stream.declaredFrames, frames <= 20_000_000 else { return nil }
            count += Int(frames)
        }
        let playable = PlaybackSession.playableStreams(from: opened.streamCandidates())
        var start = -Double.infinity
        var end = Double.infinity
        for index in playable {
            guard let first = opened.streams[index].startTime, let last = opened.streams[index].declaredEnd else {
                return nil
            }
            start = max(start, first)
            end = min(end, last)
        }
        guard !playable.isEmpty, count > 0, count <= 20_000_000, start.isFinite, end.isFinite, end > start else {
            return nil
        }
        let layout = DownloadLayout.progressive(indexAtEnd: indexAtEnd, mode: download)
        return (count, playable, start, end, max(size, layout.indexByteEnd), layout)
    }

    /// Starts a run over `opened`'s units as they will be read, with the engine `makeEngine` builds for the
    /// source (`description`, `kind`, media guessed from the header); `nil` when the header says too little
    /// (`guess`). `boxes` are the file's box headers (`IndexAtEnd.boxes`).
    static func start(
        _ opened: MediaInput, description: String, kind: String, boxes: MP4BoxLayout?, download: DownloadMode,
        makeEngine: @escaping @Sendable (SimulationSource) -> SimulationEngine
    ) -> SimulationRunAhead? {
        guard let guess = guess(opened, boxes: boxes, download: download) else { return nil }
        let feed = SimulationUnitBuffer(capacity: guess.unitCount)
        let source = SimulationSource(
            description: description, kind: kind,
            media: .fed(
                feed, unitCount: guess.unitCount, playableStreams: guess.playable, startTime: guess.start,
                endTime: guess.end, totalBytes: guess.totalBytes, download: guess.layout))
        return SimulationRunAhead(feed: feed, source: source, makeEngine: makeEngine)
    }

    private init(
        feed: SimulationUnitBuffer, source: SimulationSource,
        makeEngine: @escaping @Sendable (SimulationSource) -> SimulationEngine
    ) {
        self.feed = feed
        self.media = source.media
        // Made on the run's thread: a new engine already reads the first unit, which the reading thread
        // has yet to read.
        // As much stack as the main thread has: the engine runs the same code there otherwise.
        run = BlockingThread.start(name: "bufprobe.simulate-ahead", stackSize: 8 << 20) {
            var running = makeEngine(source)
            running.run()
            return running
        }
    }

    /// The finished run, when it is the run `loaded` gives: the same figures and identical units, and
    /// nothing in the run needed what only the whole file tells (`SimulationUnitFeed.invalidate()`).
    /// Waits for the run to end. Call after the reading ended (`feed.close()`).
    func engine(for loaded: SimulationMedia) -> SimulationEngine? {
        // The media first: a run over other media is not waited for.
        guard feed.count == loaded.unitCount, loaded.layout == media.layout,
            loaded.playableStreams == media.playableStreams, loaded.startTime == media.startTime,
            loaded.endTime == media.endTime, loaded.totalBytes == media.totalBytes, loaded.download == media.download,
            loaded.initializationBytes == 0
        else { return nil }
        var reader = loaded.makeReader()
        for index in 0..<loaded.unitCount where reader.unit(index) != feed.base[index] { return nil }
        let engine = run.join()
        guard feed.isComplete else { return nil }
        return engine
    }
}

/// The units of a file being read, written by the reading side (the packet worker's thread) into storage
/// allocated once for the count the header declares, and read by a run on another thread
/// (`SimulationUnitFeed`). Units become readable in batches; the byte offsets are the running maximum, as
/// the loaded media's are.
package final class SimulationUnitBuffer: SimulationUnitFeed, @unchecked Sendable {
    // @unchecked: `written`, `reached` and `overflowed` belong to the writing thread until `close()`;
    // `published`, `closed` and `wasted` are read and written under `condition`; a unit below `published`
    // is never written again.

    /// Units made readable at once: a handful of lock round trips per second of reading.
    static let batch = 4096

    private let capacity: Int
    private let storage: UnsafeMutablePointer<SimulationMedia.Unit>
    private var written = 0
    private var reached: Int64 = 0
    private var overflowed = false
    private let condition = NSCondition()
    private var published = 0
    private var closed = false
    private var wasted = false

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: max(capacity, 1))
    }

    deinit {
        // Units are plain values (no references): the memory needs no deinitialization.
        storage.deallocate()
    }

    package var base: UnsafePointer<SimulationMedia.Unit> { UnsafePointer(storage) }

    /// Units written; read after `close()`.
    var count: Int { written }

    /// Adds the next unit as the builder made it (its own end: made the running maximum here). Beyond the
    /// declared count the buffer stops: the run is wasted.
    func append(_ unit: SimulationMedia.Unit) {
        guard written < capacity else {
            overflowed = true
            return
        }
        var unit = unit
        reached = max(reached, unit.byteEnd)
        unit.byteEnd = reached
        (storage + written).initialize(to: unit)
        written += 1
        if written % Self.batch == 0 { publish(closing: false) }
    }

    /// The reading ended (or failed): every unit written is readable, and a run waiting past them ends.
    func close() { publish(closing: true) }

    private func publish(closing: Bool) {
        condition.lock()
        published = written
        if closing {
            closed = true
            if overflowed { wasted = true }
        }
        condition.broadcast()
        condition.unlock()
    }

    package func available(through index: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while published <= index, !closed { condition.wait() }
        if published > index { return published }
        wasted = true
        return nil
    }

    package func invalidate() {
        condition.lock()
        wasted = true
        condition.unlock()
    }

    /// Whether the reading ended with every unit in and the run needed nothing a feed cannot give.
    var isComplete: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed && !wasted
    }
}
