internal import CFFmpeg

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
    /// Every stream, indexed by `StreamInfo.index`.
    public let streams: [StreamInfo]
    /// Programs (HLS/DASH variants); empty for most files.
    public let programs: [ProgramInfo]
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

    /// Opens `url` with libavformat `options` (protocol and demuxer AVOptions such as `user_agent`,
    /// `headers`, `rw_timeout`) and reads enough to know its streams.
    ///
    /// - Parameter interrupter: enforces timeouts and cancellation on every blocking call.
    /// - Throws: `FFmpegError` naming the step that failed.
    public convenience init(
        url: String, options: [String: String] = [:], interrupter: Interrupter? = nil
    ) throws(FFmpegError) {
        try self.init(url: url, options: options, interrupter: interrupter, memory: nil)
    }

    /// Opens `url`, or the bytes of `memory` (then `url` only names them), as `init(url:options:interrupter:)`.
    init(url: String, options: [String: String], interrupter: Interrupter?, memory: MemoryIO?) throws(FFmpegError) {
        self.url = url
        self.interrupter = interrupter
        self.memory = memory
        let started = ContinuousClock.now
        packet = try PacketStorage()
        var ctx: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        guard ctx != nil else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avformat_alloc_context")
        }
        if let interrupter {
            // The context borrows the interrupter unretained: `self` keeps it alive for the context's life.
            ctx!.pointee.interrupt_callback = interrupter.avioCallback
        }
        // A caller-supplied pb makes libavformat set AVFMT_FLAG_CUSTOM_IO and leave the context to us.
        if let memory { ctx!.pointee.pb = memory.context }
        var dictionary: OpaquePointer? = nil
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&dictionary, key, value, 0)
        }
        defer { av_dict_free(&dictionary) }

        interrupter?.arm()
        // On failure avformat_open_input frees the context and sets it to NULL.
        let opened = avformat_open_input(&ctx, url, nil, &dictionary)
        interrupter?.disarm()
        guard opened >= 0, let ctx else {
            throw FFmpegError(code: opened, operation: "avformat_open_input")
        }
        var unused: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            unused.append(String(cString: next.pointee.key))
            entry = next
        }
        unusedOptions = unused

        interrupter?.arm()
        let found = avformat_find_stream_info(ctx, nil)
        interrupter?.disarm()
        if found < 0 {
            var closing: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&closing)
            throw FFmpegError(code: found, operation: "avformat_find_stream_info")
        }
        context = ctx
        openDuration = ContinuousClock.now - started

        let fc = ctx.pointee
        let count = Int(fc.nb_streams)
        streams = (0..<count).map { StreamInfo(fc.streams[$0]!) }
        programs = (0..<Int(fc.nb_programs)).compactMap { i in
            guard let program = fc.programs[i]?.pointee else { return nil }
            let indices = (0..<Int(program.nb_stream_indexes)).map { Int(program.stream_index[$0]) }
            let rate = av_dict_get(program.metadata, "variant_bitrate", nil, 0)
                .flatMap { Int64(String(cString: $0.pointee.value)) }
            return ProgramInfo(id: Int(program.id), streams: indices, declaredBitRate: rate)
        }
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
        let pkt = packet.pointer
        var result: Int32
        repeat {
            interrupter?.arm()
            result = av_read_frame(context, pkt)
            interrupter?.disarm()
        } while result == cffmpeg_averror(EAGAIN) && interrupter?.reason == nil
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
        let index = Int(p.stream_index)
        let timeBase = streams[index].timeBase
        return Packet(
            stream: index,
            pts: timeBase.seconds(p.pts),
            dts: timeBase.seconds(p.dts),
            duration: p.duration > 0 ? timeBase.seconds(p.duration) : nil,
            size: Int(p.size),
            position: p.pos >= 0 ? p.pos : nil,
            isKeyframe: p.flags & AV_PKT_FLAG_KEY != 0,
            isCorrupt: p.flags & AV_PKT_FLAG_CORRUPT != 0)
    }

    /// The byte offset the demuxer has read up to, when the input has an I/O context.
    public var bytePosition: Int64? {
        guard let pb = context.pointee.pb else { return nil }
        let position = avio_tell(pb)
        return position >= 0 ? position : nil
    }

    /// Bytes received from the network or disk so far, when the protocol counts them.
    public var bytesRead: Int64? {
        guard let pb = context.pointee.pb else { return nil }
        return pb.pointee.bytes_read
    }
}
