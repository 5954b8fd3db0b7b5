/// A remote playlist or manifest bufprobe read itself, to be handed to FFmpeg's demuxer as the input's
/// first read (`MediaInput(url:prefetched:...)`), so that the input is requested once, not twice, and a
/// live HLS media playlist is windowed before FFmpeg parses it.
///
/// Why: libavformat opens its input as the context's own I/O context and hands it to the demuxer, past
/// `ResourceGate`'s copy and window of every later playlist, so FFmpeg 5.1's HLS demuxer would parse the
/// first load of a media playlist given as the input whole, keeping every segment it lists (about 200 bytes
/// each: a 16 MiB playlist of 490,000 segments costs over 100 MiB). Read here, a live media playlist longer
/// than `ResourceLimits.liveSegments` becomes its window (`HLSPlaylistWindow`) like every reload, and
/// the demuxer reads the bytes from memory with the protocol options and location the read left
/// (`ResourceReader.urlOptions`), as it would have read them from its own open.
public struct PrefetchedInput: Sendable, Equatable {
    /// What FFmpeg's demuxer reads: the body, or its window.
    public var bytes: [UInt8]
    /// The URL the body came from (the last redirect's target): what the demuxer resolves against and
    /// reloads.
    public var location: String
    /// The protocol options the demuxer copies into its later requests, `location` included.
    public var urlOptions: [String: String]
    /// The demuxer that reads `bytes` (`hls` or `dash`).
    public var demuxer: String

    /// The input `url` read whole through `interrupter` (its policy, pace and timeouts; the whole timeout
    /// to answer, as FFmpeg's open of the input), at most `limit` bytes, for `demuxer`; an HLS live media
    /// playlist longer than the window is windowed. `opened`, when given, is called once the request's
    /// response head arrived (FFmpeg's `io_open` returned), for timing.
    /// - Throws: `PrefetchedInput.TooLarge` for a body over `limit`; otherwise `FFmpegError` as
    ///   `ResourceReader` throws it.
    public static func read(
        url: String, demuxer: String, options: [String: String], interrupter: Interrupter?,
        limit: Int64 = ResourceLimits.playlistBytes, opened: (() -> Void)? = nil
    ) throws -> PrefetchedInput {
        // The input's own request: its answer is waited for as FFmpeg's open of the input would wait. Half
        // the timeout (a nested resource's share) gave up on a slow origin that FFmpeg's own open then asked
        // again, and that second read reached the demuxer whole: eight checks of a 300,000-segment playlist
        // on a loaded machine peaked at 38 MiB a check, over the 24 MiB budget.
        let reader = try ResourceReader(url: url, options: options, interrupter: interrupter, asInput: true)
        opened?()
        let body: [UInt8]
        switch Result(catching: { () throws(FFmpegError) -> [UInt8] in try reader.readAll(limit: limit) }) {
        case .success(let bytes):
            body = bytes
        case .failure(let error):
            // readAll's answer for a body over the limit (an interrupted read is the interrupter's).
            guard error.isInvalidData, interrupter?.reason == nil else { throw error }
            throw TooLarge(url: reader.location, declaredSize: reader.size, limit: limit)
        }
        let window = demuxer == "hls" ? HLSPlaylistWindow.window(body) : nil
        return PrefetchedInput(
            bytes: window ?? body, location: reader.location, urlOptions: reader.urlOptions, demuxer: demuxer)
    }

    /// A playlist or manifest larger than bufprobe reads as one (`ResourceLimits.playlistBytes`).
    public struct TooLarge: Error, Sendable, Equatable {
        /// Where the body came from.
        public var url: String
        /// Its size as the server declared it (`Content-Length`), when it did.
        public var declaredSize: Int64?
        /// The most bytes read as one playlist.
        public var limit: Int64
    }
}
