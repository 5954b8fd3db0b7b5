import Foundation
import MediaIO
import InputReading

extension CheckEvent.Requests {
    /// What the check's resource gate `gate` refused or skipped by now, as the machine takes it: `opening`
    /// when the check stops before receiving; `bytes` received in all, `partStalled` the LL-HLS part still
    /// arriving, `cancelled` whether the user stopped the check.
    init(gate: Interrupter, source: String, timeout: Double, opening: Bool, bytes: Int64, partStalled: String?, cancelled: Bool) {
        self.init()
        limit = Self.limitSentence(of: gate, source: source, timeout: timeout, opening: opening)
        let skipped = gate.skipped.filter { $0.kind != .failed }
        warnings = skipped.map { $0.sentence(for: source) }
        // Failed opens are FFmpeg's to judge (a segment of a variant not played does not count).
        self.skipped = skipped.map { .init(url: $0.url, why: $0.why) }
        self.partStalled = partStalled
        self.cancelled = cancelled
        bytesReceived = bytes
    }

    /// The sentence for a stop of `gate` that was not a timeout or Ctrl-C (a request loop, an oversized
    /// playlist); while `opening`, a resource it skipped says why the open failed.
    static func limitSentence(of gate: Interrupter, source: String, timeout: Double, opening: Bool) -> String? {
        guard let reason = gate.reason else {
            return opening ? gate.skipped.first(where: { $0.kind != .failed })?.openFailure(for: source) : nil
        }
        guard reason != .timeout, reason != .cancelled else { return nil }
        return reason.sentence(for: source, timeout: timeout, opening: opening)
    }
}

extension CheckEvent {
    /// The event for an open that failed with `error`: interrupted (`cancelled`), a DASH manifest a request
    /// policy (`policed`) cannot check (not `dashChecked`), else `openFailed` (the machine's sentence: a
    /// resource limit, the LL-HLS client's failure, FFmpeg's error).
    static func openFailure(
        _ error: FFmpegError, requests: Requests, source: String, cancelled: Bool, policed: Bool, dashChecked: Bool
    ) -> CheckEvent {
        if cancelled { return .failed(CheckSentence.interruptedOpening(source), requests: requests) }
        // The demuxer was refused by the policy's format whitelist (MediaInput): DASH, in FFmpeg 5.1, when
        // the URL did not name a manifest bufprobe could check first.
        if requests.limit == nil, policed, !dashChecked, error.code == -EINVAL {
            return .failed(CheckSentence.unnamedManifest(source), requests: requests)
        }
        return .openFailed(error, requests: requests)
    }
}
