internal import CFFmpeg
internal import CFFmpegShims

/// Opens one URL for an input under the interrupter's `RequestPolicy`, redirects included: the one path of
/// the resource gate (FFmpeg's opens) and `ResourceReader` (bufprobe's).
///
/// FFmpeg's http protocol follows a redirect inside one open, without asking `io_open` again, so a
/// checked URL could lead anywhere. Under a policy every HTTP open is made with `max_redirects=0`: the
/// redirect then fails the open, its `Location` is read from the header line FFmpeg logs
/// (`cffmpeg_redirect_capture_begin`), checked, paced and opened as a request of its own, at most
/// `RequestPolicy.maxRedirects` times. A redirect whose target cannot be read fails closed (the open fails
/// as FFmpeg reports it). FFmpeg's log callback must be bufprobe's (`FFmpegLog.install`) for the target
/// to be read.
enum RequestGuard {
    /// Opens `url` through `attempt` (called with the URL to request and whether to add `max_redirects=0`
    /// to its options), checking `url` (its allow-list match only when `matchingAllowList`) and every
    /// redirect target first. Returns `attempt`'s result, or `AVERROR(EACCES)` for a refused URL (recorded
    /// with `interrupter.refuse`), `AVERROR_EXIT` when interrupted while pacing.
    static func open(
        _ url: String, interrupter: Interrupter, matchingAllowList: Bool, attempt: (_ url: String, _ stopRedirects: Bool) -> Int32
    ) -> Int32 {
        guard let policy = interrupter.policy else { return attempt(url, false) }
        var current = url
        var matching = matchingAllowList
        for hop in 0...RequestPolicy.maxRedirects {
            if let refusal = policy.refusal(for: current, matchingAllowList: matching) {
                let why = hop == 0 ? refusal.why : "is where \(url) redirected, and \(refusal.why)"
                interrupter.refuse(current, reason: refusal.reason, why: why)
                return cffmpeg_averror(EACCES)
            }
            if hop > 0, !interrupter.pace(current) { return cffmpeg_averror_exit() }
            let requested = RequestPolicy.requested(current)
            let isHTTP = ProtocolWhitelist.protocolChain(of: requested).contains { $0 == "http" || $0 == "https" }
            guard isHTTP else { return attempt(current, false) }
            cffmpeg_redirect_capture_begin()
            let result = attempt(current, true)
            var buffer = [CChar](repeating: 0, count: 4096)
            let captured = cffmpeg_redirect_capture_end(&buffer, buffer.count) == 1
            guard result == cffmpeg_averror(EIO), captured else { return result }
            let location = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // The wrapping protocols (crypto+) stay; the redirect replaces what they wrap.
            let wrapper = String(current.dropLast(requested.count))
            current = wrapper + URLReference.resolve(location, against: requested)
            // A redirect target is checked whole, whatever the URL that led there.
            matching = true
        }
        return cffmpeg_averror(EIO)
    }
}
