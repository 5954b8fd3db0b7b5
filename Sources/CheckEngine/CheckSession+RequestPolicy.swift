import MediaIO

extension CheckSession {
    /// What the request policy (`--deny-private`, serve's `--allow-target`) lets the check open, decided
    /// before anything is opened.
    struct Admission {
        /// The sentence the check fails with when the input may not be read; `nil` when it may.
        var refusal: String?
        /// Whether the input is a DASH manifest bufprobe read and found leading only to allowed URLs, so
        /// that FFmpeg's DASH demuxer may read it (`MediaInput`'s `dashChecked`).
        var dashChecked = false
        /// The DASH manifest as bufprobe read it to check it, handed to FFmpeg so that it is requested once.
        var manifest: PrefetchedInput?
    }

    /// The input under the request policy. The input itself (its allow-list match is the caller's): the
    /// resource gate checks it again with its redirects, but covers HTTP inputs only (rtmp, srt... too here).
    /// A DASH manifest is read and checked by bufprobe before FFmpeg opens it (`DASHRequestCheck`), since
    /// FFmpeg 5.1's DASH demuxer requests its segments past the resource gate.
    func admittedUnderPolicy() -> Admission {
        guard let policy = interrupter.policy else { return Admission() }
        if let refusal = policy.refusal(for: source, matchingAllowList: false) {
            interrupter.refuse(source, reason: refusal.reason, why: refusal.why)
            return Admission(refusal: "\(source) was not requested: it \(refusal.why).")
        }
        guard ContainerFormat(namedBy: source) == .dash else { return Admission() }
        let manifest = InputKind.ffmpegURL(for: settings.requestURL(for: source))
        switch DASHRequestCheck.check(manifest: manifest, source: source, options: settings.formatOptions, interrupter: interrupter) {
        case .allowed(_, let manifest):
            return Admission(dashChecked: true, manifest: manifest)
        case .refused(let url, let why):
            return Admission(refusal: "\(source) was not read: its DASH manifest leads to \(url), which \(why).")
        case .unusable(let sentence):
            if cancelled.load(ordering: .acquiring) { return Admission(refusal: "\(source): interrupted while opening.") }
            return Admission(refusal: resourceLimitSentence(opening: true) ?? sentence)
        }
    }
}
