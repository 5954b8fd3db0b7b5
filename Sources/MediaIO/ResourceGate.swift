internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import Synchronization

/// Every resource FFmpeg opens for one remote input passes here (`AVFormatContext.io_open`, which the
/// HLS and DASH demuxers call for each playlist, segment and key): the protocol whitelist, a pace of at
/// most `ResourceLimits.requestsPerSecond` per origin (`Interrupter.pace`), loop detection, a share of the timeout for each
/// nested resource, and the playlist size cap (checked where FFmpeg polls the interrupt callback, before
/// each transfer). Installed by `MediaInput` as the context's `io_open`/`io_close2` and interrupt
/// callback; the context borrows it unretained and `MediaInput` keeps it alive.
///
/// Every playlist the HLS demuxer reads after opening its input (each media playlist, and each reload, the
/// input's own included) is read whole before the demuxer parses it (`PlaylistTee`), and a live media
/// playlist longer than `ResourceLimits.liveSegments` is handed over as its window (`HLSPlaylistWindow`):
/// FFmpeg keeps every segment of every reload it parses, so this bounds what a growing playlist costs.
/// With a `playlistLoaded` observer, that text is handed over when FFmpeg closes it: what the player saw,
/// when it saw it, without one more request. The input's first read does not pass here: libavformat opens
/// it as the context's own `pb`, probes it and closes it with `avio_close`, which a wrapped context would not
/// survive. A caller that must bound it reads it itself and hands the bytes over (`PrefetchedInput`: `check`
/// does so for every remote HLS input, windowed like a reload); otherwise FFmpeg parses the first load
/// whole, within `ResourceLimits.playlistBytes`.
///
/// With a `requestTiming`, every open that succeeded is timed on the caller's clock, from the call to
/// FFmpeg's own open (after the pace's wait) to its return: for HTTP, the connection, the request and the
/// response head (and any redirect), before the first byte of the body is read. The input's own first
/// open counts too.
///
/// With a `decorateRequest` function, every open but the input's first gets what it returns for the URL
/// (`RequestDecoration`: a query argument on the URL requested, header lines added to FFmpeg's `headers`
/// option), after the request policy checked the URL as FFmpeg asked for it; redirects are followed as the
/// server sent them.
///
/// With `watchesRequests` (a DASH input under a request policy, `MediaInput`'s `dashChecked`), every HTTP
/// request FFmpeg is about to send on the reading thread is checked against the policy where FFmpeg polls
/// the interrupt callback before writing it (`cffmpeg_request_watch_take`), and a refused one is aborted
/// before its first byte: FFmpeg 5.1's DASH demuxer opens its segments and init sections with `avio_open2`,
/// past `io_open`, and its http protocol follows their redirects inside that open; each redirect's request
/// is watched the same way.
///
/// FFmpeg calls all of it on the reading thread; the lock only makes that assumption safe.
final class ResourceGate: Sendable {
    typealias Open = @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
        UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    typealias Close = @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32

    private struct State {
        /// Whether the context was freed (a failed open): nothing may read it any more.
        var detached = false
        /// Recent requests, for loop detection.
        var loops = RequestLoopWatch()
        /// Whether the input itself is read by a playlist demuxer, once the demuxer is known.
        var inputIsPlaylist: Bool?
        /// Nested I/O contexts not yet classified or known to be playlists, with their URL.
        /// Keyed by the context's address.
        var watched: [UInt: (url: String, isPlaylist: Bool)] = [:]
        /// URLs whose body turned out to be a playlist (a failing segment asked again is not a loop).
        var playlistURLs: Set<String> = []
        /// Playlists being copied, keyed by the address of the context handed to FFmpeg.
        var tees: [UInt: PlaylistTee] = [:]
    }

    let interrupter: Interrupter
    let input: String
    /// Receives the URL and the whole text of each playlist the HLS demuxer read (see the type's comment).
    let playlistLoaded: (@Sendable (_ url: String, _ bytes: [UInt8]) -> Void)?
    /// Times each successful open on the caller's clock (see the type's comment).
    let requestTiming: RequestTiming?
    /// What to add to each request but the input's first (see the type's comment).
    let decorateRequest: (@Sendable (_ url: String) -> RequestDecoration?)?
    /// Whether every HTTP request FFmpeg sends on the reading thread is checked where it is written (see
    /// the type's comment).
    let watchesRequests: Bool
    /// Receives the URL of each resource opened through the gate but the input's first (`MediaInput`'s
    /// `resourceOpened`).
    let resourceOpened: (@Sendable (_ url: String) -> Void)?
    private let state = Mutex(State())
    // FFmpeg's defaults, called for the actual work; and the input's own context, whose `pb` and demuxer
    // decide whether the input is read as a playlist. Used on the reading thread only.
    private let originalOpen: Open?
    private let originalClose: Close?
    nonisolated(unsafe) private let context: UnsafeMutablePointer<AVFormatContext>

    /// A gate for `input`, read through `context` (freshly allocated, not opened yet).
    init(
        interrupter: Interrupter, input: String, context: UnsafeMutablePointer<AVFormatContext>,
        playlistLoaded: (@Sendable (_ url: String, _ bytes: [UInt8]) -> Void)? = nil,
        requestTiming: RequestTiming? = nil,
        decorateRequest: (@Sendable (_ url: String) -> RequestDecoration?)? = nil, watchesRequests: Bool = false,
        resourceOpened: (@Sendable (_ url: String) -> Void)? = nil
    ) {
        self.resourceOpened = resourceOpened
        self.interrupter = interrupter
        self.watchesRequests = watchesRequests
        self.input = input
        self.playlistLoaded = playlistLoaded
        self.requestTiming = requestTiming
        self.decorateRequest = decorateRequest
        self.context = context
        originalOpen = context.pointee.io_open
        originalClose = context.pointee.io_close2
    }

    /// Hooks the context's resource opening and interrupt polling.
    func install() {
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.opaque = opaque
        context.pointee.io_open = gateOpen
        context.pointee.io_close2 = gateClose
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: gateInterrupt, opaque: opaque)
        // A request logged on this thread before (for another input) is not this input's.
        if watchesRequests {
            var discarded = [CChar](repeating: 0, count: 1)
            _ = cffmpeg_request_watch_take(&discarded, discarded.count)
        }
    }

    /// `avformat_open_input` frees the context when it fails: forget it.
    func detach() {
        state.withLock { state in
            state.detached = true
            state.watched.removeAll()
        }
    }

    // MARK: Opening

    fileprivate func open(
        _ context: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
        _ urlPointer: UnsafePointer<CChar>?, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 {
        guard let urlPointer, let original = originalOpen else { return cffmpeg_averror(EINVAL) }
        let url = String(cString: urlPointer)
        let isInput = url == input
        // libavformat opens the input itself as the context's pb; a reload of the same URL (a media
        // playlist given as the input) comes later, through the demuxer.
        let isFirstOpen = isInput && context?.pointee.pb == nil
        if !isInput, let why = interrupter.whitelist?.refusal(for: url) {
            interrupter.skip(SkippedResource(url: url, why: why, kind: .refused))
            return cffmpeg_averror(EACCES)
        }
        // A byte range of a file read in pieces is requested again and again by design; anything else
        // requested over and over within a second is a playlist that leads back to itself.
        let isRange = options.flatMap { av_dict_get($0.pointee, "offset", nil, 0) } != nil
        if !isRange, isLoop(url, isInput: isInput) {
            interrupter.stop(.requestLoop(url))
            return cffmpeg_averror_exit()
        }
        // A resource that already sent nothing once is not waited for again (FFmpeg retries a broken
        // variant playlist while it reads the others).
        if !isInput, interrupter.skipped.contains(where: { $0.url == url }) { return cffmpeg_averror(ETIMEDOUT) }
        guard interrupter.pace(url) else { return cffmpeg_averror_exit() }
        var result: Int32 = 0
        // Timed after the pace: the wait bufprobe adds is not the network's.
        let openStarted = requestTiming?.now()
        // Under a request policy, the URL and each of its redirects are checked before they are requested
        // (RequestGuard); the input's own URL was matched against the allow-list by the caller.
        // The decoration goes on the URL FFmpeg asked for once it passed the policy, not on redirect targets.
        let decoration = isFirstOpen ? nil : decorateRequest?(url)
        if let decoration, !decoration.headers.isEmpty, let options {
            let given = av_dict_get(options.pointee, "headers", nil, 0).map { String(cString: $0.pointee.value) } ?? ""
            av_dict_set(options, "headers", given + decoration.headers.map { $0 + "\r\n" }.joined(), 0)
        }
        func openChecked() -> Int32 {
            RequestGuard.open(url, interrupter: interrupter, matchingAllowList: !isInput) { target, stopRedirects in
                let requested = target == url ? decoration?.decorated(target) ?? target : target
                return Self.open(original, context, pb, requested, flags, options, stopRedirects: stopRedirects)
            }
        }
        if isInput {
            result = openChecked()
        } else {
            let tripped = interrupter.withNestedDeadline { result = openChecked() }
            if tripped, interrupter.reason == nil, let timeout = interrupter.timeout {
                interrupter.skip(SkippedResource(url: url, why: Interrupter.silentReason(timeout: timeout), kind: .silent))
                if result >= 0, let opened = pb?.pointee {
                    _ = close(context, opened)
                    pb?.pointee = nil
                }
                return cffmpeg_averror(ETIMEDOUT)
            }
        }
        if result >= 0, let requestTiming, let openStarted {
            requestTiming.opened(openStarted, requestTiming.now() - openStarted)
        }
        // A refusal is recorded already, with its reason.
        if result == cffmpeg_averror(EACCES), interrupter.policy != nil { return result }
        if result < 0, !isInput, result != cffmpeg_averror_exit(), interrupter.reason == nil {
            let error = FFmpegError(code: result, operation: "io_open")
            let why = error.httpStatus.map { "answered HTTP \($0 == 400 ? "4xx" : String($0))" } ?? "could not be opened (\(error.message))"
            interrupter.skip(SkippedResource(url: url, why: why, kind: .failed))
        }
        if result >= 0, !isFirstOpen, let opened = pb?.pointee {
            resourceOpened?(url)
            let key = UInt(bitPattern: opened)
            state.withLock { $0.watched[key] = (url, false) }
            if readsPlaylist(url, isInput: isInput), let tee = PlaylistTee(url: url, wrapping: opened) {
                state.withLock { $0.tees[UInt(bitPattern: tee.context)] = tee }
                pb?.pointee = tee.context
            }
        }
        return result
    }

    /// One attempt of FFmpeg's own open of `url`, with `max_redirects=0` added to the options when
    /// `stopRedirects`. The options as FFmpeg passed them are kept for the next attempt (a redirect's
    /// target): an open takes out of the dictionary the entries it used.
    private static func open(
        _ original: Open, _ context: UnsafeMutablePointer<AVFormatContext>?,
        _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, _ url: String, _ flags: Int32,
        _ options: UnsafeMutablePointer<OpaquePointer?>?, stopRedirects: Bool
    ) -> Int32 {
        guard stopRedirects else { return url.withCString { original(context, pb, $0, flags, options) } }
        var attempt: OpaquePointer? = nil
        if let options { av_dict_copy(&attempt, options.pointee, 0) }
        av_dict_set(&attempt, "max_redirects", "0", 0)
        let result = url.withCString { original(context, pb, $0, flags, &attempt) }
        if result >= 0, let options {
            // What the open left unused goes back to the caller, as FFmpeg's own open would leave it.
            av_dict_set(&attempt, "max_redirects", nil, 0)
            av_dict_free(options)
            options.pointee = attempt
        } else {
            av_dict_free(&attempt)
        }
        return result
    }

    /// Whether `url` is a playlist the HLS demuxer reads: the input again (a reload), or a nested
    /// resource named like a playlist (`.m3u8`, `.m3u`). Segments and keys are never wrapped.
    private func readsPlaylist(_ url: String, isInput: Bool) -> Bool {
        guard let format = context.pointee.iformat, ContainerFormat(demuxer: String(cString: format.pointee.name)) == .hls
        else { return false }
        return isInput || ContainerFormat(namedBy: url) == .hls
    }

    fileprivate func close(_ context: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
        let tee = state.withLock { $0.tees.removeValue(forKey: UInt(bitPattern: pb)) }
        // A copied playlist: FFmpeg closes the context it was given; the one it opened is closed here.
        let opened = tee?.inner ?? pb
        let key = UInt(bitPattern: opened)
        state.withLock { state in
            Self.classify(key, in: &state)
            state.watched[key] = nil
        }
        let result: Int32
        if let original = originalClose {
            result = original(context, opened)
        } else {
            var closing = opened
            result = avio_closep(&closing)
        }
        if let tee, let bytes = tee.completeBytes, interrupter.reason == nil { playlistLoaded?(tee.url, bytes) }
        // The copy stopped at the cap before the inner context was polled past it: the same stop.
        if let tee, tee.oversized, interrupter.reason == nil { interrupter.stop(.playlistTooLarge(tee.url)) }
        return result
    }

    /// Records a request of `url` at the interrupter's clock's now (a test moves it); `true` when `url` is a
    /// playlist and this is its `ResourceLimits.loopRequests`-th request within a second (`RequestLoopWatch`).
    private func isLoop(_ url: String, isInput: Bool) -> Bool {
        let now = interrupter.clock.now()
        return state.withLock { state in
            let repeated = state.loops.record(url, at: now)
            let isPlaylist = isInput ? state.inputIsPlaylist == true : state.playlistURLs.contains(url)
            return isPlaylist && repeated
        }
    }

    /// Marks a watched context's URL as a playlist when its first bytes are one.
    private static func classify(_ key: UInt, in state: inout State) {
        guard let entry = state.watched[key], !entry.isPlaylist,
            let pb = UnsafeMutablePointer<AVIOContext>(bitPattern: key)
        else { return }
        let read = pb.pointee.bytes_read
        guard read > 0 else { return }
        if read <= Int64(pb.pointee.buffer_size), startsLikePlaylist(pb) {
            state.watched[key] = (entry.url, true)
            if state.playlistURLs.count < 4096 { state.playlistURLs.insert(entry.url) }
        } else {
            state.watched[key] = nil
        }
    }

    // MARK: Polling

    fileprivate func shouldAbort() -> Bool {
        if watchesRequests, cffmpeg_request_watch_pending() != 0, refusesPendingRequest() { return true }
        if interrupter.shouldAbort() {
            // A timeout while a playlist's body is still arriving is that body's fault, not silence.
            if interrupter.reason == .timeout, let (url, bytes) = unfinishedPlaylist() {
                interrupter.stop(.playlistUnfinished(url, bytes: bytes))
            }
            return true
        }
        if let tooLarge = oversizedPlaylist() {
            interrupter.stop(.playlistTooLarge(tooLarge))
            return true
        }
        return false
    }

    /// The URL of a playlist read past `ResourceLimits.playlistBytes`, if one is: the input itself once a
    /// playlist demuxer reads it, and every nested resource whose first bytes are a playlist's.
    private func oversizedPlaylist() -> String? {
        state.withLock { state in
            if !state.detached {
                if state.inputIsPlaylist == nil, let format = context.pointee.iformat {
                    state.inputIsPlaylist = ContainerFormat(demuxer: String(cString: format.pointee.name)).readsOtherResources
                }
                if state.inputIsPlaylist == true, let pb = context.pointee.pb,
                    pb.pointee.bytes_read > ResourceLimits.playlistBytes
                {
                    return input
                }
            }
            for (key, entry) in state.watched {
                // Classified once, from the first bytes while they are still at the buffer's start.
                if !entry.isPlaylist {
                    Self.classify(key, in: &state)
                    continue
                }
                guard let pb = UnsafeMutablePointer<AVIOContext>(bitPattern: key) else { continue }
                if pb.pointee.bytes_read > ResourceLimits.playlistBytes { return entry.url }
            }
            return nil
        }
    }

    /// The URL and bytes read of a playlist whose body has started and not ended: the input once a
    /// playlist demuxer reads it, or a nested resource classified as a playlist.
    private func unfinishedPlaylist() -> (String, Int64)? {
        state.withLock { state in
            if !state.detached, state.inputIsPlaylist == true, let pb = context.pointee.pb,
                pb.pointee.bytes_read > 0, pb.pointee.eof_reached == 0
            {
                return (input, pb.pointee.bytes_read)
            }
            for (key, entry) in state.watched where entry.isPlaylist {
                guard let pb = UnsafeMutablePointer<AVIOContext>(bitPattern: key) else { continue }
                if pb.pointee.bytes_read > 0, pb.pointee.eof_reached == 0 { return (entry.url, pb.pointee.bytes_read) }
            }
            return nil
        }
    }

    private static func startsLikePlaylist(_ pb: UnsafeMutablePointer<AVIOContext>) -> Bool {
        guard let buffer = pb.pointee.buffer, let end = pb.pointee.buf_end else { return false }
        let count = min(end - buffer, 64)
        guard count > 0 else { return false }
        return ContainerFormat(head: UnsafeBufferPointer(start: buffer, count: count)) != nil
    }

}

private let gateOpen: ResourceGate.Open = { context, pb, url, flags, options in
    guard let opaque = context?.pointee.opaque else { return cffmpeg_averror(EINVAL) }
    return Unmanaged<ResourceGate>.fromOpaque(opaque).takeUnretainedValue().open(context, pb, url, flags, options)
}

private let gateClose: ResourceGate.Close = { context, pb in
    guard let opaque = context?.pointee.opaque else {
        var closing = pb
        return avio_closep(&closing)
    }
    return Unmanaged<ResourceGate>.fromOpaque(opaque).takeUnretainedValue().close(context, pb)
}

private let gateInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<ResourceGate>.fromOpaque(opaque).takeUnretainedValue().shouldAbort() ? 1 : 0
}
