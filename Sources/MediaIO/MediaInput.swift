internal import CFFmpeg
internal import CFFmpegShims

/// An opened media input: a file path or any URL libavformat accepts. Owns the `AVFormatContext`
/// (closed with `avformat_close_input` in `deinit`) and the one reusable packet; stream and format
/// details are copied into plain values when it opens.
///
/// Not thread-safe: one reader. Another thread may only call `interrupter.cancel()`.
public final class MediaInput {
    /// The path or URL as given.
    public let url: String
    /// The container's view of the input.
    public let format: FormatInfo
    /// Every stream, indexed by `StreamInfo.index`. Grows while reading when the demuxer adds a stream
    /// (an MPEG-TS PID or PMT that appears later, a live stream gaining subtitles): `readPacket()` refreshes
    /// it before returning a packet of a new stream, so `streams[packet.stream]` always exists.
    // Unchecked exclusivity: read for every packet, and one reader is this class's contract; the dynamic
    // check cost two runtime calls per packet (about 1.5 % of a long MP4 probe).
    @exclusivity(unchecked) public private(set) var streams: [StreamInfo]
    /// Programs (HLS/DASH variants); empty for most files. Refreshed with `streams`.
    public private(set) var programs: [ProgramInfo]
    /// The stream a player would show (`av_find_best_stream`), if any.
    public let bestVideoStream: Int?
    /// The stream a player would play as sound (`av_find_best_stream`, related to the video), if any.
    public let bestAudioStream: Int?
    /// Options given at open that the demuxer or protocol did not use (misspelled or irrelevant).
    public let unusedOptions: [String]
    /// Seconds `avformat_open_input` plus `avformat_find_stream_info` took.
    public let openDuration: Duration

    // Internal rather than private so that extensions in other files of MediaIO (stream discard) reach it.
    let context: UnsafeMutablePointer<AVFormatContext>
    private let packet: PacketStorage
    private let interrupter: Interrupter?
    // The in-memory I/O context of `init(bytes:...)`; released after `deinit` closed the format context.
    private let memory: MemoryIO?
    // The growing in-memory stream of `init(streaming:...)` (LL-HLS parts); released after the format context.
    private let streaming: StreamingMemoryIO?
    // readPacket's conversion to seconds; maps restarting timestamps for AVFMT_TS_DISCONT demuxers
    // (MPEG-TS, HLS...). Unchecked exclusivity for the same reason as `streams`.
    @exclusivity(unchecked) private var converter: PacketConverter
    // Borrowed unretained by the context's callbacks: lives as long as the context.
    private let gate: ResourceGate?
    /// Collected after every read (`init(url:...requestLog:)`); set once, before any read.
    private var requestLog: RequestLog? = nil

    /// Opens `url` with libavformat `options` (protocol and demuxer AVOptions such as `user_agent`,
    /// `headers`, `rw_timeout`) and reads enough to know its streams.
    ///
    /// - Parameters:
    ///   - url: a file path or any URL libavformat accepts.
    ///   - options: libavformat AVOptions for the protocol and the demuxer.
    ///   - interrupter: enforces timeouts and cancellation on every blocking call.
    ///   - playlistLoaded: for a remote HLS input, receives the URL and whole text of every playlist the
    ///     demuxer reads after opening the input (each media playlist and each live reload; not the input's
    ///     first read), on the reading thread, as FFmpeg closes it; a live media playlist longer than
    ///     `ResourceLimits.liveSegments` arrives as the window the demuxer read (`HLSPlaylistWindow`).
    ///   - requestTiming: for a remote input, times each successful open of the input or a resource it
    ///     leads to (playlist, segment, key) on the caller's clock and reports when it began and the
    ///     seconds it took (for HTTP: connection, request and response head), on the reading thread.
    ///   - decorateRequest: for a remote input, what to add to each request but the input's first (a query
    ///     argument, header lines: `RequestDecoration`), asked with the URL on the reading thread as FFmpeg
    ///     opens it (each playlist, reload, segment, key).
    ///   - dashChecked: under the interrupter's request policy, whether the caller read this DASH manifest
    ///     itself and found every URL it leads to allowed (`DASHRequestCheck`): only then may FFmpeg's
    ///     `dash` demuxer read it, with every HTTP request it sends checked where it is written
    ///     (`ResourceGate`'s request watch). Without a policy it changes nothing.
    ///   - resourceOpened: for a remote input, receives the URL of each resource the demuxer opened through
    ///     `io_open` (playlists, segments, keys; not the input's first open), on the reading thread, once the
    ///     open succeeded: which HLS segment the next media comes from.
    ///   - requestLog: records every HTTP request FFmpeg sends on the calling thread (and error answers), from
    ///     the open on; collected after the open and after every read. The caller ends it on this thread.
    ///   - prefetched: the input's first read, done by the caller (`PrefetchedInput`): the demuxer it names
    ///     reads these bytes from memory instead of requesting `url`, resolving against and reloading its
    ///     `location` (then `url` of the opened input) with its protocol options. Every later request passes
    ///     the gate as usual.
    /// - Throws: `FFmpegError` naming the step that failed.
    public convenience init(
        url: String, options: [String: String] = [:], interrupter: Interrupter? = nil,
        playlistLoaded: (@Sendable (_ url: String, _ bytes: [UInt8]) -> Void)? = nil,
        requestTiming: RequestTiming? = nil,
        decorateRequest: (@Sendable (_ url: String) -> RequestDecoration?)? = nil, dashChecked: Bool = false,
        resourceOpened: (@Sendable (_ url: String) -> Void)? = nil, requestLog: RequestLog? = nil,
        prefetched: PrefetchedInput? = nil
    ) throws(FFmpegError) {
        requestLog?.begin()
        defer { requestLog?.collect() }
        var memory: MemoryIO?
        if let prefetched { memory = try MemoryIO(bytes: prefetched.bytes, urlOptions: prefetched.urlOptions) }
        try self.init(
            url: prefetched?.location ?? url, options: options, interrupter: interrupter, memory: memory,
            demuxer: prefetched?.demuxer, playlistLoaded: playlistLoaded,
            requestTiming: requestTiming, decorateRequest: decorateRequest, dashChecked: dashChecked,
            resourceOpened: resourceOpened)
        self.requestLog = requestLog
    }

    /// Opens `url`, or the bytes of `memory` (then `url` only names them), as `init(url:options:interrupter:)`.
    init(
        url: String, options: [String: String], interrupter: Interrupter?, memory: MemoryIO?,
        streaming: StreamingMemoryIO? = nil, demuxer: String? = nil,
        playlistLoaded: (@Sendable (_ url: String, _ bytes: [UInt8]) -> Void)? = nil,
        requestTiming: RequestTiming? = nil,
        decorateRequest: (@Sendable (_ url: String) -> RequestDecoration?)? = nil, dashChecked: Bool = false,
        resourceOpened: (@Sendable (_ url: String) -> Void)? = nil
    ) throws(FFmpegError) {
        self.url = url
        self.interrupter = interrupter
        self.memory = memory
        self.streaming = streaming
        let clock = interrupter?.clock ?? MonotonicIOClock()
        let started = clock.now()
        packet = try PacketStorage()
        guard let allocated = avformat_alloc_context() else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avformat_alloc_context")
        }
        // avformat_open_input takes the context by reference and sets it to NULL when it fails.
        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        var ownOptions: [String: String] = [:]
        if let interrupter, let whitelist = interrupter.whitelist {
            // A remote input: every resource it leads to passes the gate. The HLS demuxer's keep-alive
            // re-requests bypass io_open, so they are turned off: each request is then one open the
            // gate paces and checks.
            // The request watch reads what FFmpeg logs: without bufprobe's log callback it would see nothing.
            let readsDASH = interrupter.policy != nil && dashChecked && cffmpeg_log_sink_installed() != 0
            let gate = ResourceGate(
                interrupter: interrupter, input: url, context: allocated, playlistLoaded: playlistLoaded,
                requestTiming: requestTiming, decorateRequest: decorateRequest, watchesRequests: readsDASH,
                resourceOpened: resourceOpened)
            gate.install()
            self.gate = gate
            ownOptions = ["protocol_whitelist": whitelist.ffmpegValue, "http_persistent": "0"]
            // FFmpeg 5.1's DASH demuxer opens its segments with avio_open2 itself, past io_open: under a
            // request policy it may read only a manifest whose URLs the caller checked (`dashChecked`), with
            // the gate watching each HTTP request it sends. The list is copied to the contexts the HLS and
            // DASH demuxers open for their segments.
            if interrupter.policy != nil {
                let demuxers = Self.demuxersUnderPolicy + (readsDASH ? ",dash" : "")
                allocated.pointee.format_whitelist = av_strdup(demuxers)
                // The DASH demuxer's avio_open2 also opens file: URLs with these extensions (no protocol
                // whitelist applies there, and the request watch sees HTTP only): none may match.
                if readsDASH { ownOptions["allowed_extensions"] = Self.noFileExtensions }
            }
        } else {
            gate = nil
            if let interrupter {
                // The context borrows the interrupter unretained: `self` keeps it alive for the context's life.
                allocated.pointee.interrupt_callback = interrupter.avioCallback
            }
        }
        // A caller-supplied pb makes libavformat set AVFMT_FLAG_CUSTOM_IO and leave the context to us.
        if let memory { allocated.pointee.pb = memory.context }
        if let streaming { allocated.pointee.pb = streaming.context }
        var dictionary: OpaquePointer? = nil
        for (key, value) in options.merging(ownOptions, uniquingKeysWith: { _, own in own }).sorted(by: { $0.key < $1.key }) {
            av_dict_set(&dictionary, key, value, 0)
        }
        defer { av_dict_free(&dictionary) }

        interrupter?.arm()
        // On failure avformat_open_input frees the context and sets it to NULL.
        // A named demuxer reads bytes the caller read as the input (no probing: they are that demuxer's).
        let forced = demuxer.flatMap { av_find_input_format($0) }
        let opened = avformat_open_input(&ctx, url, forced, &dictionary)
        interrupter?.disarm()
        guard opened >= 0, let ctx else {
            gate?.detach()
            throw FFmpegError(code: opened, operation: "avformat_open_input")
        }
        var unused: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            let key = String(cString: next.pointee.key)
            // bufprobe's own options apply to some demuxers only; the user did not ask for them.
            if ownOptions[key] == nil || options[key] != nil { unused.append(key) }
            entry = next
        }
        unusedOptions = unused

        interrupter?.arm()
        let found = avformat_find_stream_info(ctx, nil)
        interrupter?.disarm()
        if found < 0 {
            gate?.detach()
            var closing: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&closing)
            throw FFmpegError(code: found, operation: "avformat_find_stream_info")
        }
        context = ctx
        openDuration = .nanoseconds(Int64(exactly: ((clock.now() - started) * 1e9).rounded()) ?? 0)

        let fc = ctx.pointee
        let count = Int(fc.nb_streams)
        let streamInfos = (0..<count).compactMap { fc.streams[$0].map(StreamInfo.init) }
        streams = streamInfos
        programs = Self.programs(of: ctx)
        let video = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        bestVideoStream = video >= 0 ? Int(video) : nil
        let audio = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, video >= 0 ? video : -1, nil, 0)
        bestAudioStream = audio >= 0 ? Int(audio) : nil

        var tags: [String: String] = [:]
        var tag: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(fc.metadata, "", tag, AV_DICT_IGNORE_SUFFIX) {
            tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            tag = next
        }
        converter = PacketConverter(
            timeBases: streamInfos.map(\.timeBase), mapsDiscontinuities: fc.iformat.pointee.flags & AVFMT_TS_DISCONT != 0)
        let timeBase = cffmpeg_time_base_q()
        // A pipe or FIFO answers avio_size with 0 (or an error): only a seekable input knows its size.
        let size: Int64? = fc.pb.flatMap { $0.pointee.seekable != 0 ? avio_size($0) : nil }.flatMap { $0 >= 0 ? $0 : nil }
        format = FormatInfo(
            name: String(cString: fc.iformat.pointee.name),
            longName: fc.iformat.pointee.long_name.map { String(cString: $0) } ?? "",
            duration: Rational(timeBase).seconds(fc.duration),
            startTime: Rational(timeBase).seconds(fc.start_time),
            bitRate: fc.bit_rate > 0 ? fc.bit_rate : nil,
            size: size,
            tags: tags)
    }

    /// The DASH demuxer's `allowed_extensions` under a request policy: an extension no local file has, so
    /// that it opens no `file:` URL (`av_match_ext` compares the text after the last dot).
    static let noFileExtensions = "bufprobe-opens-no-local-file"

    /// Every demuxer but those that open resources without `io_open` (`dash`): the `format_whitelist` of
    /// an input read under a `RequestPolicy`.
    static let demuxersUnderPolicy: String = {
        var names: [String] = []
        var opaque: UnsafeMutableRawPointer? = nil
        while let format = av_demuxer_iterate(&opaque) {
            let name = String(cString: format.pointee.name)
            if !ContainerFormat(demuxer: name).bypassesResourceGate { names.append(name) }
        }
        return names.joined(separator: ",")
    }()

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    /// Reads the next packet. Returns `nil` at the end of the input.
    ///
    /// An end of file is believed only when no interrupt tripped and the I/O context reports no error:
    /// a cancelled or timed-out HLS read, and some I/O failures, surface from `av_read_frame` as a
    /// plain `AVERROR_EOF`.
    /// - Throws: `FFmpegError` for any read failure, `AVERROR_EXIT` when interrupted.
    public func readPacket() throws(FFmpegError) -> Packet? {
        guard let raw = try readRawPacket() else { return nil }
        return converter.packet(raw)
    }

    /// `readPacket()` without the conversion to seconds, for a reader that converts elsewhere with its
    /// own `makePacketConverter()`. `streams` already lists the packet's stream when it returns.
    /// - Throws: as `readPacket()`.
    public func readRawPacket() throws(FFmpegError) -> RawPacket? {
        let pkt = packet.pointer
        var result: Int32
        // One deadline for the whole wait: a demuxer that keeps answering EAGAIN makes no progress.
        interrupter?.arm()
        repeat {
            result = av_read_frame(context, pkt)
        } while result == cffmpeg_averror(EAGAIN) && interrupter?.reason == nil
        interrupter?.disarm()
        requestLog?.collect()
        if result == cffmpeg_averror_eof() {
            if interrupter?.reason != nil {
                throw FFmpegError(code: cffmpeg_averror_exit(), operation: "av_read_frame")
            }
            if let pb = context.pointee.pb, pb.pointee.error < 0, pb.pointee.error != cffmpeg_averror_eof() {
                throw FFmpegError(code: pb.pointee.error, operation: "av_read_frame")
            }
            return nil
        }
        if result < 0 {
            let code = interrupter?.reason != nil ? cffmpeg_averror_exit() : result
            throw FFmpegError(code: code, operation: "av_read_frame")
        }
        defer { av_packet_unref(pkt) }
        let p = pkt.pointee
        if Int(p.stream_index) >= streams.count { refreshStreams() }
        guard p.stream_index >= 0, Int(p.stream_index) < streams.count else {
            throw FFmpegError(code: cffmpeg_averror_invaliddata(), operation: "av_read_frame")
        }
        return RawPacket(
            pts: p.pts, dts: p.dts, duration: p.duration, position: p.pos, stream: p.stream_index, size: p.size,
            flags: p.flags)
    }

    /// A converter for this input's streams as they are now, with no timestamps seen: for a reader that
    /// converts `readRawPacket()`'s packets on another thread. Take it before the first read, and add the
    /// streams `streams` gains while reading, in order.
    public func makePacketConverter() -> PacketConverter { converter.restarted() }

    /// Copies the streams the demuxer added since the list was last read, and the programs again (a new
    /// stream may join one).
    private func refreshStreams() {
        let fc = context.pointee
        let count = Int(fc.nb_streams)
        guard count > streams.count else { return }
        for index in streams.count..<count {
            guard let stream = fc.streams[index] else { return }
            let info = StreamInfo(stream)
            streams.append(info)
            converter.addStream(timeBase: info.timeBase)
        }
        programs = Self.programs(of: context)
    }

    /// The programs of `context`, with the stream indices each one holds.
    private static func programs(of context: UnsafeMutablePointer<AVFormatContext>) -> [ProgramInfo] {
        let fc = context.pointee
        let streamCount = Int(fc.nb_streams)
        return (0..<Int(fc.nb_programs)).compactMap { i in
            guard let program = fc.programs[i]?.pointee else { return nil }
            let indices = (0..<Int(program.nb_stream_indexes)).map { Int(program.stream_index[$0]) }
                .filter { $0 < streamCount }
            let rate = av_dict_get(program.metadata, "variant_bitrate", nil, 0)
                .flatMap { Int64(String(cString: $0.pointee.value)) }
            return ProgramInfo(id: Int(program.id), streams: indices, declaredBitRate: rate)
        }
    }

    /// The byte offset the demuxer has read up to, when the input has an I/O context.
    public var bytePosition: Int64? {
        guard let pb = context.pointee.pb else { return nil }
        let position = avio_tell(pb)
        return position >= 0 ? position : nil
    }

    /// How many times the timestamps restarted or jumped and were mapped onto one continuous timeline
    /// (`TimestampContinuity`); 0 for demuxers whose timestamps cannot restart.
    public var timestampDiscontinuities: Int { converter.discontinuities }

    /// Bytes received from the network or disk so far, when the protocol counts them.
    public var bytesRead: Int64? {
        guard let pb = context.pointee.pb else { return nil }
        return pb.pointee.bytes_read
    }
}
