internal import CFFmpeg

/// Reads a whole small resource (a playlist) through FFmpeg's protocols, so `http(s)://`, `file:` and
/// every other scheme libavformat speaks work the same way, with the same timeouts. Owns the
/// `AVIOContext` it opens and closes it with `avio_closep` in `deinit`.
public final class ResourceReader {
    private var context: UnsafeMutablePointer<AVIOContext>?
    private let interrupter: Interrupter?

    /// Opens `url` for reading with protocol `options` (`user_agent`, `headers`...).
    /// - Throws: `FFmpegError` from `avio_open2` (HTTP errors map to `httpStatus`).
    public init(url: String, options: [String: String] = [:], interrupter: Interrupter? = nil) throws(FFmpegError) {
        self.interrupter = interrupter
        var dictionary: OpaquePointer? = nil
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        // `self` keeps the interrupter alive as long as the context that polls it.
        var callback = interrupter?.avioCallback ?? AVIOInterruptCB()
        interrupter?.arm()
        let result = avio_open2(&context, url, AVIO_FLAG_READ, &callback, &dictionary)
        interrupter?.disarm()
        guard result >= 0, context != nil else { throw FFmpegError(code: result, operation: "avio_open2") }
    }

    deinit { avio_closep(&context) }

    /// Every byte up to the end, at most `limit` (a playlist is small; anything larger is not one).
    /// - Throws: `FFmpegError` for a read failure, `AVERROR_EXIT` when interrupted, and
    ///   `AVERROR_INVALIDDATA` when the resource is larger than `limit`.
    public func readAll(limit: Int = 4 << 20) throws(FFmpegError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            interrupter?.arm()
            let count = chunk.withUnsafeMutableBufferPointer { avio_read(context, $0.baseAddress, Int32($0.count)) }
            interrupter?.disarm()
            if count == cffmpeg_averror_eof() || count == 0 {
                if interrupter?.reason != nil { throw FFmpegError(code: cffmpeg_averror_exit(), operation: "avio_read") }
                return bytes
            }
            if count < 0 {
                let code = interrupter?.reason != nil ? cffmpeg_averror_exit() : count
                throw FFmpegError(code: code, operation: "avio_read")
            }
            bytes.append(contentsOf: chunk[..<Int(count)])
            if bytes.count > limit { throw FFmpegError(code: cffmpeg_averror_invaliddata(), operation: "avio_read") }
        }
    }
}
