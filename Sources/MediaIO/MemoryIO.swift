internal import CFFmpeg
internal import CFFmpegShims

/// Owns the custom `AVIOContext` that lets libavformat read a byte array held in memory (read and
/// seek callbacks over the bytes), and frees the context and its buffer in `deinit`.
///
/// The `MediaInput` that installs `context` as its `pb` keeps this object alive for as long as its
/// `AVFormatContext` exists: libavformat never frees a caller-supplied I/O context.
final class MemoryIO {
    /// The I/O context, to be set as `AVFormatContext.pb` before `avformat_open_input`.
    let context: UnsafeMutablePointer<AVIOContext>
    private let bytes: [UInt8]
    private var position = 0

    // libavformat reads in chunks of this size; it may enlarge the buffer itself (seek-back while probing).
    private static let bufferSize: Int32 = 32 << 10

    /// Wraps `bytes` for reading. With `urlOptions` (keys such as `user_agent`, `headers`, `location`), the
    /// context answers them as FFmpeg's http context would (`cffmpeg_io_options_attach`): a demuxer that
    /// copies the input's protocol options into its later requests, and resolves against its `location`,
    /// does so for bytes bufprobe read itself.
    /// - Throws: `FFmpegError` (`ENOMEM`) when FFmpeg cannot allocate the context or its buffer.
    init(bytes: [UInt8], urlOptions: [String: String] = [:]) throws(FFmpegError) {
        self.bytes = bytes
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "av_malloc")
        }
        // The context borrows `self` unretained: `self` owns the context and outlives it.
        guard let made = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, nil, memoryRead, nil, memorySeek)
        else {
            av_free(buffer)
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avio_alloc_context")
        }
        // Before `context` is set: a throw past that point would run `deinit` on the freed context.
        if !urlOptions.isEmpty {
            guard cffmpeg_io_options_attach(made) == 0 else {
                av_freep(&made.pointee.buffer)
                var freeing: UnsafeMutablePointer<AVIOContext>? = made
                avio_context_free(&freeing)
                throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "cffmpeg_io_options_attach")
            }
            for (key, value) in urlOptions.sorted(by: { $0.key < $1.key }) { _ = cffmpeg_io_options_set(made, key, value) }
        }
        context = made
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        cffmpeg_io_options_detach(context)
        // The buffer may have been reallocated by libavformat, so free the one the context holds now.
        av_freep(&context.pointee.buffer)
        var freeing: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&freeing)
    }

    /// Copies up to `count` bytes from the current position into `destination`; `AVERROR_EOF` at the end.
    fileprivate func read(into destination: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        let available = bytes.count - position
        guard available > 0, count > 0 else { return cffmpeg_averror_eof() }
        let copied = min(Int(count), available)
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            destination.update(from: base + position, count: copied)
        }
        position += copied
        return Int32(copied)
    }

    /// Moves to `offset` relative to `whence` (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`), or answers the size
    /// for `AVSEEK_SIZE`. A target outside the bytes is refused with `EINVAL`.
    fileprivate func seek(to offset: Int64, whence: Int32) -> Int64 {
        let size = Int64(bytes.count)
        // AVSEEK_FORCE only says "even if slow": memory is never slow.
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == AVSEEK_SIZE { return size }
        let base: Int64
        switch mode {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = size
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= size else { return Int64(cffmpeg_averror(EINVAL)) }
        position = Int(target)
        return target
    }
}

// libavformat's read callback: `opaque` is the MemoryIO that owns the context.
private let memoryRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer else { return cffmpeg_averror(EINVAL) }
    return Unmanaged<MemoryIO>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: count)
}

// libavformat's seek callback, including the AVSEEK_SIZE query.
private let memorySeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return Int64(cffmpeg_averror(EINVAL)) }
    return Unmanaged<MemoryIO>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
}
