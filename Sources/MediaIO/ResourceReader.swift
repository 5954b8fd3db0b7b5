internal import CFFmpeg

/// Reads a whole small resource (a playlist) through FFmpeg's protocols, so `http(s)://`, `file:` and
/// every other scheme libavformat speaks work the same way. Owns the `AVIOContext` it opens and closes it
/// with `avio_closep` in `deinit`.
///
/// With an interrupter, the resource is read on behalf of that interrupter's input and follows the same
/// rules as what FFmpeg reads for it: the protocol whitelist (a refusal is recorded as a skipped
/// resource, nothing is opened), half the timeout to answer (a silent resource is skipped, and not asked
/// again), and at most `ResourceLimits.playlistBytes`.
public final class ResourceReader {
    private var context: UnsafeMutablePointer<AVIOContext>?
    private let interrupter: Interrupter?
    private let url: String

    /// Opens `url` for reading with protocol `options` (`user_agent`, `headers`...).
    /// - Throws: `FFmpegError` from `avio_open2` (HTTP errors map to `httpStatus`); `EACCES` for a protocol
    ///   off the whitelist, `ETIMEDOUT` for a resource that sent nothing.
    public init(url: String, options: [String: String] = [:], interrupter: Interrupter? = nil) throws(FFmpegError) {
        self.interrupter = interrupter
        self.url = url
        var options = options
        if let interrupter, let whitelist = interrupter.whitelist {
            guard whitelist.allows(url) else {
                interrupter.skip(SkippedResource(url: url, why: "uses a protocol a remote input may not use (only \(whitelist))", kind: .refused))
                throw FFmpegError(code: cffmpeg_averror(EACCES), operation: "avio_open2")
            }
            options["protocol_whitelist"] = whitelist.ffmpegValue
        }
        if let interrupter, interrupter.skipped.contains(where: { $0.url == url }) {
            throw FFmpegError(code: cffmpeg_averror(ETIMEDOUT), operation: "avio_open2")
        }
        if let interrupter, !interrupter.pace(url) {
            throw FFmpegError(code: cffmpeg_averror_exit(), operation: "avio_open2")
        }
        var dictionary: OpaquePointer? = nil
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        // `self` keeps the interrupter alive as long as the context that polls it.
        var callback = interrupter?.avioCallback ?? AVIOInterruptCB()
        var result: Int32 = 0
        let silent = interrupter?.withNestedDeadline {
            result = avio_open2(&context, url, AVIO_FLAG_READ, &callback, &dictionary)
        } ?? {
            result = avio_open2(&context, url, AVIO_FLAG_READ, &callback, &dictionary)
            return false
        }()
        if silent { throw skipSilent("avio_open2") }
        guard result >= 0, context != nil else { throw FFmpegError(code: result, operation: "avio_open2") }
    }

    deinit { avio_closep(&context) }

    /// Every byte up to the end, at most `limit` (a playlist is small; anything larger is not one).
    /// - Throws: `FFmpegError` for a read failure, `AVERROR_EXIT` when interrupted, and
    ///   `AVERROR_INVALIDDATA` when the resource is larger than `limit`.
    public func readAll(limit: Int64 = ResourceLimits.playlistBytes) throws(FFmpegError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var count: Int32 = 0
            let read = { count = chunk.withUnsafeMutableBufferPointer { avio_read(self.context, $0.baseAddress, Int32($0.count)) } }
            if interrupter?.withNestedDeadline(read) ?? { read(); return false }() { throw skipSilent("avio_read") }
            if count == cffmpeg_averror_eof() || count == 0 {
                if interrupter?.reason != nil { throw FFmpegError(code: cffmpeg_averror_exit(), operation: "avio_read") }
                return bytes
            }
            if count < 0 {
                let code = interrupter?.reason != nil ? cffmpeg_averror_exit() : count
                throw FFmpegError(code: code, operation: "avio_read")
            }
            bytes.append(contentsOf: chunk[..<Int(count)])
            if Int64(bytes.count) > limit { throw FFmpegError(code: cffmpeg_averror_invaliddata(), operation: "avio_read") }
        }
    }

    private func skipSilent(_ operation: String) -> FFmpegError {
        if let interrupter, let timeout = interrupter.timeout {
            interrupter.skip(SkippedResource(url: url, why: Interrupter.silentReason(timeout: timeout), kind: .silent))
        }
        return FFmpegError(code: cffmpeg_averror(ETIMEDOUT), operation: operation)
    }
}
