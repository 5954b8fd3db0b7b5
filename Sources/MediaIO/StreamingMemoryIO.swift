internal import CFFmpeg
import Foundation
import Synchronization

/// A growing byte stream in memory that libavformat reads as it arrives: one thread appends (an LL-HLS
/// client adding each part it fetched), the demuxer's read callback blocks until there are bytes to give,
/// the producer finished (end of file), or the interrupter says stop. Owns the custom `AVIOContext` and
/// frees it and its buffer in `deinit`, as `MemoryIO` does.
///
/// Every wait is bounded: the read callback waits on the interrupter's clock in slices of `pollInterval`
/// and asks the interrupter (armed by `MediaInput` around each read, so `--timeout` bounds a stream that
/// stops growing) between slices; an append, `finish()`, and the interrupter's alarm (Ctrl-C, the end of a
/// sample) end a slice at once. Memory is bounded too: bytes more than `keptBehind`
/// before the read position are dropped, and `append` refuses to hold more than `maxUnread` unread bytes.
/// The context is not seekable (`seekable = 0`); its seek callback moves only within the bytes still held,
/// which is what the MP4 demuxer needs to read a fragment's tracks, interleaved in its `mdat`, in time order.
public final class StreamingMemoryIO: Sendable {
    /// Why `append` refused bytes.
    public enum AppendError: Error, Sendable, Hashable {
        /// `finish()` was called.
        case finished
        /// The reader is more than `maxUnread` bytes behind.
        case readerTooFarBehind
    }

    /// What the producer and the reader share, under `state`'s lock.
    private struct State {
        /// The bytes held: from `base` to the end of the stream.
        var bytes: [UInt8] = []
        /// Stream offset of `bytes[0]`.
        var base: Int64 = 0
        /// The read position, a stream offset.
        var position: Int64 = 0
        /// Whether `finish()` was called: no byte will be appended.
        var finished = false
        /// Raised by the next append or `finish()`: ends the read's wait for bytes.
        var grew: Alarm?
    }

    /// Bytes kept before the read position for the demuxer to seek back into.
    public static let keptBehind = 8 << 20
    /// The most unread bytes held: a reader this far behind is not playing in real time.
    public static let maxUnread = 64 << 20
    /// How long the read callback waits between two looks at the interrupter.
    static let pollInterval = 0.02

    /// The bytes and positions.
    private let state = Mutex(State())
    /// Asked between waits: a timeout or a cancel ends the read; its clock times the waits.
    private let interrupter: Interrupter?
    /// The clock the read waits on: the interrupter's.
    private let clock: any IOClock
    /// The I/O context, installed as `AVFormatContext.pb` by `MediaInput`.
    nonisolated(unsafe) let context: UnsafeMutablePointer<AVIOContext>
    /// The I/O context's buffer, bytes (libavformat may enlarge it).
    private static let bufferSize: Int32 = 32 << 10

    /// An empty stream whose reads stop when `interrupter` says so.
    /// - Throws: `FFmpegError` (`ENOMEM`) when FFmpeg cannot allocate the context or its buffer.
    public init(interrupter: Interrupter?) throws(FFmpegError) {
        self.interrupter = interrupter
        clock = interrupter?.clock ?? MonotonicIOClock()
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "av_malloc")
        }
        guard let made = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, nil, streamingRead, nil, streamingSeek)
        else {
            av_free(buffer)
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avio_alloc_context")
        }
        context = made
        // Forward seeks read through; backward ones reach the callback, which stays within the bytes held.
        context.pointee.seekable = 0
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var freeing: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&freeing)
    }

    /// Adds `bytes` at the end of the stream (from the producer's thread). Returns the stream offset of
    /// their first byte.
    /// - Throws: `AppendError` after `finish()`, or when the reader is `maxUnread` bytes behind.
    @discardableResult
    public func append(_ bytes: [UInt8]) throws(AppendError) -> Int64 {
        let result: Result<Int64, AppendError> = state.withLock { state in
            if state.finished { return .failure(.finished) }
            let end = state.base + Int64(state.bytes.count)
            if end - state.position + Int64(bytes.count) > Int64(Self.maxUnread) { return .failure(.readerTooFarBehind) }
            state.bytes.append(contentsOf: bytes)
            return .success(end)
        }
        wakeReader()
        return try result.get()
    }

    /// Ends the stream: the reader gets the bytes held, then end of file. Safe to call more than once.
    public func finish() {
        state.withLock { $0.finished = true }
        wakeReader()
    }

    /// Ends the read's wait for bytes, if one waits.
    private func wakeReader() {
        state.withLock { state in
            defer { state.grew = nil }
            return state.grew
        }?.raise()
    }

    /// The stream offset one past the last byte appended.
    public var end: Int64 { state.withLock { $0.base + Int64($0.bytes.count) } }

    /// Copies up to `count` bytes from the read position, waiting for them; `AVERROR_EOF` once finished
    /// and read to the end, `AVERROR_EXIT` when the interrupter stops the read.
    fileprivate func read(into destination: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        guard count > 0 else { return 0 }
        while true {
            var grew: Alarm?
            let copied: Int32? = state.withLock { state in
                let offset = Int(state.position - state.base)
                let available = state.bytes.count - offset
                if available <= 0 {
                    if state.finished { return cffmpeg_averror_eof() }
                    // Set under the lock of the look: bytes appended after it raise this alarm.
                    let alarm = Alarm(parent: interrupter?.alarm)
                    (state.grew, grew) = (alarm, alarm)
                    return nil
                }
                let n = min(Int(count), available)
                state.bytes.withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { destination.update(from: base + offset, count: n) }
                }
                state.position += Int64(n)
                // Drop what lies far enough behind; in large steps so that the copy is rare.
                let behind = Int(state.position - state.base) - Self.keptBehind
                if behind > Self.keptBehind {
                    state.bytes.removeFirst(behind)
                    state.base += Int64(behind)
                }
                return Int32(n)
            }
            if let copied { return copied }
            if interrupter?.shouldAbort() ?? false { return cffmpeg_averror_exit() }
            if let grew { clock.sleep(until: clock.now() + Self.pollInterval, alarm: grew) }
        }
    }

    /// Moves within the bytes held (`SEEK_SET`, `SEEK_CUR`); the size is unknown (`AVSEEK_SIZE`) and
    /// anything else is refused with `ESPIPE`.
    fileprivate func seek(to offset: Int64, whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        return state.withLock { state in
            let target: Int64
            switch mode {
            case SEEK_SET: target = offset
            case SEEK_CUR:
                let (sum, overflow) = state.position.addingReportingOverflow(offset)
                if overflow { return Int64(cffmpeg_averror(EINVAL)) }
                target = sum
            default: return Int64(cffmpeg_averror(ESPIPE))
            }
            guard target >= state.base, target <= state.base + Int64(state.bytes.count) else {
                return Int64(cffmpeg_averror(ESPIPE))
            }
            state.position = target
            return target
        }
    }
}

// libavformat's read callback: `opaque` is the StreamingMemoryIO that owns the context.
private let streamingRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer else { return cffmpeg_averror(EINVAL) }
    return Unmanaged<StreamingMemoryIO>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: count)
}

// libavformat's seek callback.
private let streamingSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return Int64(cffmpeg_averror(EINVAL)) }
    return Unmanaged<StreamingMemoryIO>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
}
