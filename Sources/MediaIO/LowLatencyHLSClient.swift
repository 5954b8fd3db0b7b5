import Foundation
import Synchronization

/// Plays a low-latency HLS media playlist (RFC 8216bis) part by part, as an LL-HLS player does, since FFmpeg
/// 5.1's HLS demuxer ignores parts: starts at the live edge minus the hold-back at an `INDEPENDENT` part,
/// fetches the `#EXT-X-MAP` and then each part in order, appends their bytes to a `StreamingMemoryIO` that
/// libavformat demuxes, and asks for each part not yet listed with a blocking playlist reload
/// (`_HLS_msn=M&_HLS_part=P`, §6.2.5.2), timing how long the server held it.
///
/// What to do next is `LowLatencyPartScheduler`'s to decide (pure, tested in virtual time); the client does
/// the requests and waits it asks for, on the caller's clock (`now`, `wait`).
///
/// It judges nothing: every playlist it loads and every part it appends is handed to `observe` (on its own
/// thread) as an `Observation`, and the caller applies the rules. Every request goes through `interrupter`
/// (its protocol whitelist, request policy, pace, and half its timeout to answer); `stop()` cancels the
/// request in flight and ends the stream.
public final class LowLatencyHLSClient: Sendable {
    /// What the client saw or did, in order.
    public enum Observation: Sendable {
        /// A media playlist was loaded: its URL as requested, the playlist, when the request began and how
        /// long it took (check seconds), and for a blocking reload the part it asked for.
        case playlist(url: String, playlist: HLSPlaylist, began: Double, seconds: Double, asked: Request?)
        /// A part's bytes were appended to the stream at `range` (stream offsets); `wholeSegment` when a
        /// segment no longer listed by parts was fetched whole to catch up.
        case part(HLSPlaylist.Part, range: Range<Int64>, at: Double, wholeSegment: Bool)
        /// The start: the part playing begins at, and how far behind the newest listed media it is (seconds).
        case started(HLSPlaylist.Part, behindEdge: Double)
        /// A request failed or was refused: one sentence naming the URL.
        case failed(String)
    }

    /// A blocking reload's question.
    public struct Request: Sendable, Hashable {
        /// `_HLS_msn`.
        public var sequence: Int
        /// `_HLS_part`.
        public var part: Int
        /// Whether `_HLS_skip=YES` asked for a delta update.
        public var skip: Bool

        /// A request for part `part` of segment `sequence`.
        public init(sequence: Int, part: Int, skip: Bool) {
            self.sequence = sequence
            self.part = part
            self.skip = skip
        }
    }

    /// The largest part (or catch-up segment) accepted, bytes: a part that never ends is cut off here.
    public static let maxPartBytes: Int64 = 32 << 20
    /// Every how many blocking reloads one asks for a delta update, when the server offers them.
    static let deltaEvery = 4
    /// Playlist reloads that may fail in a row (each reported) before the client stops.
    public static let reloadAttempts = 3

    /// The stream the parts are appended to.
    public let stream: StreamingMemoryIO
    /// The media playlist's URL, as requested (relative URIs resolve against it).
    private let url: String
    /// The playlist read before the client was made: where it starts.
    private let first: HLSPlaylist
    /// Seconds behind the newest listed part to start (`startPart`).
    private let holdBack: Double
    /// Protocol AVOptions of every request.
    private let options: [String: String]
    /// Bounds and polices every request; `stop()` cancels it.
    private let interrupter: Interrupter
    /// The caller's clock, seconds.
    private let now: @Sendable () -> Double
    /// Receives every observation, on the client's thread.
    private let observe: @Sendable (Observation) -> Void
    /// Waits this many seconds on the caller's clock (between polls and failed reloads).
    private let wait: @Sendable (Double) -> Void
    /// The thread `start()` started, joined by `join()`.
    private let thread = Mutex<BlockingThread.Handle<Void>?>(nil)
    /// Set by `stop()`.
    private let stopped = Atomic<Bool>(false)
    /// The part or map being fetched and since when (`inFlight`).
    private let fetching = Mutex<(url: String, since: Double)?>(nil)

    /// A client for the media playlist at `url`, already loaded as `first`, starting `holdBack` seconds from
    /// its live edge.
    /// - Parameters:
    ///   - url: the media playlist, as requested (relative URIs resolve against it).
    ///   - first: the playlist as read before: where the client starts.
    ///   - holdBack: seconds behind the newest listed part to start (`startPart(in:holdBack:)`).
    ///   - options: protocol AVOptions for every request (`user_agent`, `headers`).
    ///   - interrupter: bounds and polices every request (a child of `readInterrupter`, so that the end of
    ///     the check stops it); `stop()` cancels it.
    ///   - readInterrupter: the one the demuxer reading the stream is armed with: it bounds each wait for bytes.
    ///   - now: the caller's clock (seconds), for the observations' times.
    ///   - observe: receives every observation, on the client's thread.
    ///   - wait: waits the given seconds on the caller's clock (`nil`: `interrupter`'s clock, the wait ending at
    ///     once when `interrupter` is cancelled or `stop()` is called).
    /// - Throws: `FFmpegError` when the stream cannot be allocated.
    public init(
        url: String, first: HLSPlaylist, holdBack: Double, options: [String: String], interrupter: Interrupter,
        readInterrupter: Interrupter?, now: @escaping @Sendable () -> Double, observe: @escaping @Sendable (Observation) -> Void,
        wait: (@Sendable (Double) -> Void)? = nil
    ) throws(FFmpegError) {
        self.url = url
        self.first = first
        self.holdBack = holdBack
        self.options = options
        self.interrupter = interrupter
        self.now = now
        self.observe = observe
        self.wait = wait ?? { [clock = interrupter.clock, alarm = interrupter.alarm] seconds in
            clock.sleep(until: clock.now() + seconds, alarm: alarm)
        }
        stream = try StreamingMemoryIO(interrupter: readInterrupter)
    }

    /// Starts fetching on a thread of its own.
    public func start() {
        let started = BlockingThread.start(name: "bufprobe LL-HLS") { [self] in
            run()
            stream.finish()
        }
        thread.withLock { $0 = started }
    }

    /// Blocks until the thread `start()` started has returned (at once when none was started). After `stop()`
    /// that is as soon as the request in flight sees the cancel: every wait of the client ends at once.
    package func join() { thread.withLock { $0 }?.join() }

    /// Stops: the request in flight is cancelled, no other is made, the stream ends. Safe from any thread.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        interrupter.cancel()
        stream.finish()
    }

    /// Whether `stop()` was called.
    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// The part (or map) being fetched now and since when (the caller's seconds), if one is.
    public var inFlight: (url: String, since: Double)? { fetching.withLock { $0 } }

    /// Whether a failure is the end of the check rather than the server's (stopped, or the check cancelled).
    private var isEnding: Bool { isStopped || interrupter.reason == .cancelled }

    /// The part to start at in `playlist`: the newest `INDEPENDENT` one that begins at least `holdBack`
    /// before the end of the newest listed part, else the oldest listed part.
    public static func startPart(in playlist: HLSPlaylist, holdBack: Double) -> HLSPlaylist.Part? {
        let parts = playlist.allParts
        var behind = 0.0
        var reached: Int?
        for index in parts.indices.reversed() {
            behind += parts[index].duration
            if behind >= holdBack - 1e-6 {
                reached = index
                break
            }
        }
        guard let reached else { return parts.first { !$0.gap } }
        return parts[...reached].last { $0.independent && !$0.gap } ?? parts.first { !$0.gap }
    }

    /// Where the part after `part` is found in `playlist`: listed (`.part`), only as a whole segment
    /// (`.segment`), or not yet (`nil`). A part index past the end of a complete segment means part 0 of the
    /// next one (§6.2.5.2).
    public enum Next: Sendable {
        /// The part, listed.
        case part(HLSPlaylist.Part)
        /// Only its segment is listed, with no parts (an older segment).
        case segment(HLSPlaylist.Segment)
    }

    /// Looks up part `index` of segment `sequence` in `playlist`.
    public static func find(sequence: Int, index: Int, in playlist: HLSPlaylist) -> Next? {
        if let segment = playlist.segments.first(where: { $0.sequence == sequence }) {
            if index < segment.parts.count { return .part(segment.parts[index]) }
            if segment.parts.isEmpty, index == 0 { return .segment(segment) }
            // Past its last part (or its parts no longer listed after we played some): the next segment.
            return sequence < Int.max ? find(sequence: sequence + 1, index: 0, in: playlist) : nil
        }
        return playlist.trailingParts.first { $0.sequence == sequence && $0.index == index }.map(Next.part)
    }

    // MARK: The loop

    /// The loop: does what the scheduler (`LowLatencyPartScheduler`) says, start, then each part in order,
    /// with a blocking reload for each not yet listed, waiting on the caller's clock.
    private func run() {
        var scheduler = LowLatencyPartScheduler(first: first, holdBack: holdBack)
        guard let start = scheduler.start else {
            observe(.failed("\(url) lists no part to start at."))
            return
        }
        if let behindEdge = start.behindEdge { observe(.started(start.part, behindEdge: behindEdge)) }
        while !isStopped {
            switch scheduler.next() {
            case .fetchMap(let map):
                scheduler.fetched(fetch(map.uri, range: map.byteRange))
            case .fetchPart(let part, let whole):
                scheduler.fetched(fetch(part.uri, range: part.byteRange) { .part(part, range: $0, at: self.now(), wholeSegment: whole) })
            case .reload(let asked):
                let loaded = reload(asking: asked)
                scheduler.reloaded(loaded?.playlist, at: now(), ending: isEnding)
            case .wait(let until):
                wait(max(0, until - now()))
            case .stop:
                return
            }
        }
    }

    /// Loads the playlist, blocking for `asked` when given; `nil` (after an observation) when it failed.
    private func reload(asking asked: Request?) -> (playlist: HLSPlaylist, seconds: Double)? {
        var target = url
        if let asked {
            let separator = url.contains("?") ? "&" : "?"
            target += "\(separator)_HLS_msn=\(asked.sequence)&_HLS_part=\(asked.part)" + (asked.skip ? "&_HLS_skip=YES" : "")
        }
        let began = now()
        do {
            let playlist = try HLSPlaylist.load(location: target, options: options, interrupter: interrupter)
            let seconds = now() - began
            observe(.playlist(url: target, playlist: playlist, began: began, seconds: seconds, asked: asked))
            return (playlist, seconds)
        } catch {
            if !isEnding { observe(.failed("\(target) could not be reloaded: \(error).")) }
            return nil
        }
    }

    /// Fetches `uri` (resolved against the playlist) and appends it to the stream, handing `announce`'s
    /// observation of its stream range over first (the demuxer may read the bytes as soon as they are
    /// appended); `false` after an observation when it failed.
    private func fetch(
        _ uri: String, range: HLSPlaylist.ByteRange?, announce: ((Range<Int64>) -> Observation)? = nil
    ) -> Bool {
        let location = HLSPlaylist.resolve(uri, against: url)
        let began = now()
        fetching.withLock { $0 = (location, began) }
        defer { fetching.withLock { $0 = nil } }
        do {
            let reader = try ResourceReader(url: location, options: options, interrupter: interrupter, offset: range?.offset ?? 0)
            let bytes: [UInt8]
            if let range {
                guard range.length <= Self.maxPartBytes else {
                    observe(.failed("\(location) is a part of \(range.length) bytes, more than the \(Self.maxPartBytes) bufprobe reads."))
                    return false
                }
                bytes = try reader.read(count: range.length)
            } else {
                bytes = try reader.readAll(limit: Self.maxPartBytes)
            }
            // Only this thread appends: the end does not move between the announcement and the append.
            let start = stream.end
            if let announce { observe(announce(start..<(start + Int64(bytes.count)))) }
            try stream.append(bytes)
            return true
        } catch let error as StreamingMemoryIO.AppendError {
            if !isEnding, error == .readerTooFarBehind {
                observe(.failed("the parts of \(url) arrived \(StreamingMemoryIO.maxUnread >> 20) MiB ahead of playing them."))
            }
            return false
        } catch {
            if !isEnding { observe(.failed("\(location) could not be fetched: \(error).")) }
            return false
        }
    }
}
