internal import CFFmpegShims

// The request watch of a DASH input under a request policy (`watchesRequests`; see `ResourceGate`'s
// comment): FFmpeg's DASH demuxer opens segments past `io_open`, so each HTTP request is checked where
// FFmpeg is about to write it.
extension ResourceGate {
    /// Takes the HTTP request FFmpeg is about to send on this thread and checks it against the policy;
    /// `true` (abort that write) when it is refused, recorded with `interrupter.refuse`. Only the write is
    /// aborted: the next poll answers for the input again, so FFmpeg goes on as after a failed request.
    func refusesPendingRequest() -> Bool {
        guard let policy = interrupter.policy else { return false }
        var buffer = [CChar](repeating: 0, count: 4096)
        let taken = cffmpeg_request_watch_take(&buffer, buffer.count)
        guard taken != 0 else { return false }
        guard taken == 1 else {
            interrupter.refuse(
                "an HTTP request for \(input)", reason: .notAllowed,
                why: "could not be checked (FFmpeg did not say which URL it requests), so it was refused")
            return true
        }
        let url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let why = interrupter.whitelist?.refusal(for: url) {
            interrupter.refuse(url, reason: .notAllowed, why: why)
            return true
        }
        // The input's own URL was matched against the allow-list by the caller, as in `open`.
        guard let refusal = policy.refusal(for: url, matchingAllowList: url != input) else { return false }
        interrupter.refuse(url, reason: refusal.reason, why: refusal.why)
        return true
    }
}
