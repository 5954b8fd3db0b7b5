internal import CFFmpeg

/// Reads a whole small resource (a playlist) through FFmpeg's protocols, so `http(s)://`, `file:` and
/// every other scheme libavformat speaks work the same way. Owns the `AVIOContext` it opens and closes it
/// with `avio_closep` in `deinit`.
///
/// With an interrupter, the resource is read on behalf of that interrupter's input and follows the same
/// rules as what FFmpeg reads for it: the protocol whitelist (a refusal is recorded as a skipped
/// resource, nothing is opened), half the timeout to answer (a silent resource is skipped, and not asked
/// again; the input itself, read in FFmpeg's place, gets the whole timeout as FFmpeg's open of it does),
/// and at most `ResourceLimits.playlistBytes`.
public final class ResourceReader {
    private var context: UnsafeMutablePointer<AVIOContext>?
    private let interrupter: Interrupter?
    private let url: String

    /// Opens `url` for reading with protocol `options` (`user_agent`, `headers`...).
    /// - Throws: `FFmpegError` from `avio_open2` (HTTP errors map to `httpStatus`); `EACCES` for a protocol
    ///   off the whitelist, `ETIMEDOUT` for a resource that sent nothing.
    /// - Parameters:
    ///   - url: the resource, as the input leads to it.
    ///   - options: protocol AVOptions (`user_agent`, `headers`...).
    ///   - interrupter: enforces timeouts and cancellation on every blocking call.
    ///   - offset: the first byte to read (a sub-range of the resource, as `#EXT-X-BYTERANGE` names
    ///     one): HTTP asks for it with a `Range` request, other protocols seek to it.
    ///   - asInput: the resource is the input itself, read in place of FFmpeg's own open of it
    ///     (`PrefetchedInput`): its answer is waited for as that open waits, the whole timeout, not half.
    public init(
        url: String, options: [String: String] = [:], interrupter: Interrupter? = nil, offset: Int64 = 0,
        asInput: Bool = false
    ) throws(FFmpegError) {
        self.interrupter = interrupter
        self.url = url
        var options = options
        let isHTTP = ProtocolWhitelist.protocolChain(of: url).contains { $0 == "http" || $0 == "https" }
        if offset > 0, isHTTP { options["offset"] = String(offset) }
        if let interrupter, let whitelist = interrupter.whitelist {
            if let why = whitelist.refusal(for: url) {
                interrupter.skip(SkippedResource(url: url, why: why, kind: .refused))
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
        // `self` keeps the interrupter alive as long as the context that polls it.
        var callback = interrupter?.avioCallback ?? AVIOInterruptCB()
        var result: Int32 = 0
        let attempt = { (target: String, stopRedirects: Bool) -> Int32 in
            var dictionary: OpaquePointer? = nil
            for (key, value) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&dictionary, key, value, 0) }
            if stopRedirects { av_dict_set(&dictionary, "max_redirects", "0", 0) }
            defer { av_dict_free(&dictionary) }
            return avio_open2(&self.context, target, AVIO_FLAG_READ, &callback, &dictionary)
        }
        let silent: Bool
        if let interrupter {
            silent = interrupter.withNestedDeadline(whole: asInput) {
                // The same policy as FFmpeg's own requests for the input: this URL and each redirect checked.
                result = RequestGuard.open(url, interrupter: interrupter, matchingAllowList: true, attempt: attempt)
            }
        } else {
            result = attempt(url, false)
            silent = false
        }
        if silent { throw skipSilent("avio_open2") }
        guard result >= 0, let opened = context else { throw FFmpegError(code: result, operation: "avio_open2") }
        if offset > 0, !isHTTP {
            var position: Int64 = 0
            let seek = { position = avio_seek(opened, offset, SEEK_SET) }
            if interrupter?.withNestedDeadline(seek) ?? { seek(); return false }() { throw skipSilent("avio_seek") }
            guard position == offset else {
                throw FFmpegError(code: position < 0 ? Int32(clamping: position) : cffmpeg_averror(EINVAL), operation: "avio_seek")
            }
        }
    }

    /// The resource's size in bytes as the protocol knows it without reading the body (HTTP
    /// `Content-Length`, a file's size), or `nil` when it does not (a chunked response).
    public var size: Int64? {
        guard let context else { return nil }
        let size = avio_size(context)
        return size >= 0 ? size : nil
    }

    /// The URL the body came from: for HTTP, the last redirect's target (FFmpeg's `location` option), else
    /// the URL opened. What relative URLs in the body resolve against.
    public var location: String {
        guard let context else { return url }
        var value: UnsafeMutablePointer<UInt8>? = nil
        guard av_opt_get(context, "location", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return url }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? url : text
    }

    /// The protocol options FFmpeg's HLS and DASH demuxers copy from their input's context into every later
    /// request (`ffio_copy_url_options` in FFmpeg 5.1: `headers`, `user_agent`, `cookies`, `http_proxy`,
    /// `referer`, `rw_timeout`, `icy`; cookies as the response's `Set-Cookie` left them) and the `location`
    /// relative URLs resolve against: what a demuxer handed this resource's bytes (`PrefetchedInput`) needs to
    /// go on as if it had opened the resource itself. Empty values are left out, as FFmpeg leaves them out.
    public var urlOptions: [String: String] {
        var options: [String: String] = [:]
        guard let context else { return options }
        for key in Self.copiedOptions {
            var value: UnsafeMutablePointer<UInt8>? = nil
            guard av_opt_get(context, key, AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { continue }
            defer { av_free(value) }
            let text = String(cString: value)
            if !text.isEmpty { options[key] = text }
        }
        options["location"] = location
        return options
    }

    /// The keys of `ffio_copy_url_options` (libavformat/aviobuf.c, FFmpeg 5.1), in its order.
    static let copiedOptions = ["headers", "user_agent", "cookies", "http_proxy", "referer", "rw_timeout", "icy"]

    /// The next `count` bytes (fewer at the end of the resource), for a sub-range of a resource.
    /// - Throws: as `readAll(limit:)`.
    public func read(count: Int64) throws(FFmpegError) -> [UInt8] {
        try read(upTo: count, refusingMore: false)
    }

    deinit { avio_closep(&context) }

    /// Every byte up to the end, at most `limit` (a playlist is small; anything larger is not one).
    /// - Throws: `FFmpegError` for a read failure, `AVERROR_EXIT` when interrupted, and
    ///   `AVERROR_INVALIDDATA` when the resource is larger than `limit`.
    public func readAll(limit: Int64 = ResourceLimits.playlistBytes) throws(FFmpegError) -> [UInt8] {
        try read(upTo: limit, refusingMore: true)
    }

    /// At most `maximum` bytes; with `refusingMore`, a resource that has more is an error.
    private func read(upTo maximum: Int64, refusingMore: Bool) throws(FFmpegError) -> [UInt8] {
        var bytes: [UInt8] = []
        // A body declared larger than the limit is refused unread; a known size is reserved at once (a 16 MiB
        // playlist grown by doubling would hold up to 48 MiB while the last copy is made).
        if let size, size > 0 {
            if refusingMore, size > maximum { throw FFmpegError(code: cffmpeg_averror_invaliddata(), operation: "avio_read") }
            bytes.reserveCapacity(Int(min(size, maximum)))
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if !refusingMore, Int64(bytes.count) >= maximum { return bytes }
            // Never ask for more than is wanted: a sub-range ends inside the resource.
            let wanted = refusingMore ? Int64(chunk.count) : min(Int64(chunk.count), maximum - Int64(bytes.count))
            var count: Int32 = 0
            // avio_read_partial, not avio_read: avio_read waits until the whole chunk is in, so a slow but
            // steady server (64 KiB at 4,000 bytes/s takes 16 s) would trip "sent nothing" within half of
            // --timeout though it never stopped sending; a partial read returns what has come.
            let read = {
                count = chunk.withUnsafeMutableBufferPointer { avio_read_partial(self.context, $0.baseAddress, Int32(clamping: wanted)) }
            }
            if interrupter?.withNestedDeadline(read) ?? { read(); return false }() { throw skipSilent("avio_read") }
            if count == cffmpeg_averror_eof() || count == 0 {
                if interrupter?.reason != nil { throw FFmpegError(code: cffmpeg_averror_exit(), operation: "avio_read") }
                return bytes
            }
            if count < 0 {
                let code = interrupter?.reason != nil ? cffmpeg_averror_exit() : count
                throw FFmpegError(code: code, operation: "avio_read")
            }
            // Refused before the bytes past the limit are kept: appending them would outgrow what was reserved.
            if refusingMore, Int64(bytes.count) + Int64(count) > maximum {
                throw FFmpegError(code: cffmpeg_averror_invaliddata(), operation: "avio_read")
            }
            bytes.append(contentsOf: chunk[..<Int(count)])
        }
    }

    private func skipSilent(_ operation: String) -> FFmpegError {
        if let interrupter, let timeout = interrupter.timeout {
            interrupter.skip(SkippedResource(url: url, why: Interrupter.silentReason(timeout: timeout), kind: .silent))
        }
        return FFmpegError(code: cffmpeg_averror(ETIMEDOUT), operation: operation)
    }
}
