internal import CFFmpeg

/// One playlist FFmpeg's HLS demuxer reads, read whole first and then handed to the demuxer, windowed when
/// it is a long live media playlist (`HLSPlaylistWindow`): `ResourceGate` hands the demuxer this object's
/// I/O context instead of the one FFmpeg opened (the *inner* one, which does the network work and keeps its
/// interrupt callback, byte counter and size cap). The demuxer's first read reads the inner context to its
/// end; every read then serves the (windowed) text, which is also what the gate's `playlistLoaded` observer
/// receives. Owns the wrapping `AVIOContext` and its buffer and frees them in `deinit`; the gate closes the
/// inner context the way FFmpeg opened it.
///
/// Only the HLS demuxer's playlist reads are wrapped: they read lines to the end and close, so a
/// read-only, unseekable context is all they need, plus one query: the demuxer asks the context for the
/// HTTP `location` (`av_opt_get` with `AV_OPT_SEARCH_CHILDREN`) to resolve segment URIs against the
/// playlist's URL after a redirect. The wrapper's `AVClass` (`teeClass`) has no options of its own and
/// names the inner context as its only child, so that query reaches the HTTP context as before (without
/// it, a redirected media playlist's segments would be asked for next to the old URL).
///
/// FFmpeg opens, reads and closes a playlist on its reading thread only; the gate's lock guards the
/// table that holds it, hence `@unchecked Sendable`.
final class PlaylistTee: @unchecked Sendable {
    /// The URL FFmpeg asked for.
    let url: String
    /// The context FFmpeg opened; closed by the gate.
    let inner: UnsafeMutablePointer<AVIOContext>
    /// The context handed to the demuxer in place of `inner`.
    let context: UnsafeMutablePointer<AVIOContext>
    private var bytes: [UInt8] = []
    /// How much of `bytes` the demuxer has read.
    private var served = 0
    /// Whether the inner context was read to its end (or to an error).
    private var loaded = false
    private var reachedEnd = false
    private var broken = false
    /// The error that ended the inner read early, returned once what came before it is served.
    private var failure: Int32?
    /// Whether the text served is a window of the playlist the server sent.
    private(set) var windowed = false

    private static let bufferSize: Int32 = 4096

    /// Wraps `inner`; `nil` when FFmpeg cannot allocate the wrapper (the demuxer then reads `inner` itself).
    init?(url: String, wrapping inner: UnsafeMutablePointer<AVIOContext>) {
        self.url = url
        self.inner = inner
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { return nil }
        guard let made = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, nil, teeRead, nil, nil)
        else {
            av_free(buffer)
            return nil
        }
        context = made
        context.pointee.av_class = UnsafePointer(teeClass)
        // The context borrows `self` unretained: the gate keeps `self` until FFmpeg closes the context.
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // libavformat may have reallocated the buffer: free the one the context holds now.
        av_freep(&context.pointee.buffer)
        var freeing: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&freeing)
    }

    /// The playlist as the demuxer read it (windowed, if it was), when the inner context was read to its end
    /// without an error and within `ResourceLimits.playlistBytes`; `nil` for a read cut short (an
    /// interrupted or failed reload says nothing about the playlist, and a part of one would look like a
    /// shrunken window).
    var completeBytes: [UInt8]? { reachedEnd && !broken ? bytes : nil }

    /// Whether the playlist was larger than `ResourceLimits.playlistBytes`: the gate stops the input, naming it.
    private(set) var oversized = false

    /// Serves the demuxer from the playlist read whole (on the first call) and windowed. A read cut short
    /// serves nothing but its error: the part of a playlist cut at the 16 MiB cap is not windowed (it has no
    /// end), and FFmpeg would keep every one of its up to 450,000 segments (over 90 MB) before it failed.
    fileprivate func read(into destination: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        if !loaded { load() }
        if broken, let failure {
            bytes = []
            return failure
        }
        if served < bytes.count {
            let length = min(Int(count), bytes.count - served)
            bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                destination.update(from: base + served, count: length)
            }
            served += length
            return Int32(length)
        }
        return failure ?? cffmpeg_averror_eof()
    }

    /// Reads the inner context to its end, then windows a long live playlist.
    private func load() {
        loaded = true
        // The whole size at once when the server declared it (Content-Length): growing the array by
        // doubling would hold up to three times a large playlist for a moment.
        // A body declared larger than the cap is read up to the cap (the gate then stops the input, naming
        // it), into no more than the cap.
        let declared = avio_size(inner)
        if declared > 0 { bytes.reserveCapacity(Int(min(declared, ResourceLimits.playlistBytes))) }
        var chunk = [UInt8](repeating: 0, count: Int(Self.bufferSize) * 4)
        while true {
            let read = chunk.withUnsafeMutableBufferPointer { avio_read(inner, $0.baseAddress, Int32($0.count)) }
            if read > 0 {
                // The gate stops the input past the cap (it polls the inner context's byte counter while
                // it reads); this is the same bound kept here, should the inner context not be polled.
                if Int64(bytes.count) + Int64(read) > ResourceLimits.playlistBytes {
                    oversized = true
                    broken = true
                    failure = cffmpeg_averror_exit()
                    break
                }
                bytes.append(contentsOf: chunk[0..<Int(read)])
                continue
            }
            if read == 0 || read == cffmpeg_averror_eof() {
                reachedEnd = true
            } else {
                broken = true
                failure = read
            }
            break
        }
        if reachedEnd, !broken, let window = HLSPlaylistWindow.window(bytes) {
            bytes = window
            windowed = true
        }
    }
}

// libavformat's read callback: `opaque` is the PlaylistTee that owns the context.
private let teeRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer else { return cffmpeg_averror(EINVAL) }
    return Unmanaged<PlaylistTee>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: count)
}

// The options lookup descends from the wrapper to the context FFmpeg opened (and from there, as for any
// AVIOContext, to its URLContext and protocol). `obj` is the wrapper, whose `opaque` is its PlaylistTee.
private let teeChildNext: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
    object, previous in
    guard previous == nil, let object,
        let opaque = object.assumingMemoryBound(to: AVIOContext.self).pointee.opaque
    else { return nil }
    return UnsafeMutableRawPointer(Unmanaged<PlaylistTee>.fromOpaque(opaque).takeUnretainedValue().inner)
}

// One class for every wrapper, allocated once and never freed (FFmpeg keeps pointers to classes).
nonisolated(unsafe) private let teeClass: UnsafeMutablePointer<AVClass> = {
    let name = strdup("PlaylistTee")
    var made = AVClass()
    made.class_name = UnsafePointer(name)
    made.item_name = av_default_item_name
    made.version = Int32(bitPattern: avutil_version())
    made.child_next = teeChildNext
    let pointer = UnsafeMutablePointer<AVClass>.allocate(capacity: 1)
    pointer.initialize(to: made)
    return pointer
}()
