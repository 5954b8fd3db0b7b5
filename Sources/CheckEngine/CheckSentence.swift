package import MediaIO
package import PlaybackModel
import BufprobeOutput
package import InputReading

/// The one-sentence reasons for a failed check. FFmpeg's error code alone is often too vague (a skipped
/// HLS segment, a 503 reported as "5XX", a body cut short reported as a plain end of file), so the lines
/// FFmpeg logged for this check come first when they say more.
package enum CheckSentence {
    /// Why opening failed.
    package static func openFailure(_ error: FFmpegError, source: String, lines: FFmpegLines, timeout: Double) -> String {
        if let segment = lines.failedSegments.first {
            return "\(source) could not be opened: \(describe(segment))."
        }
        if error.isInterrupted {
            return "\(source) could not be opened: nothing arrived within the \(TextFormat.seconds(timeout)) timeout (--timeout)."
        }
        if let http = lines.httpErrors.last {
            let status = "HTTP \(http.status)\(http.text.isEmpty ? "" : " \(http.text)")"
            // A playlist's own resources (variant playlists, keys, init segments) fail with their URL.
            if let url = http.url, url != source {
                return "\(source) could not be opened: \(url) answered \(status)."
            }
            return "\(source) could not be opened: the server answered \(status)."
        }
        return error.sentence(for: source, unresolvedHost: lines.unresolvedHost)
    }

    /// Why reading stopped before the end.
    package static func readFailure(
        _ error: FFmpegError, source: String, lines: FFmpegLines, timeout: Double, mediaReceived: Double?
    ) -> String {
        let position = mediaReceived.map { " at media time \(TextFormat.seconds($0))" } ?? ""
        if let segment = lines.failedSegments.first {
            return "\(source) ended early\(position): \(describe(segment))."
        }
        if let cut = lines.prematureEnd {
            return "\(source) ended early\(position): the connection closed after \(cut.received) of \(cut.expected) bytes."
        }
        if error.isInterrupted {
            return "\(source) stopped\(position): no data for \(TextFormat.seconds(timeout)) (--timeout)."
        }
        if let http = lines.httpErrors.last {
            return "\(source) ended early\(position): the server answered HTTP \(http.status)\(http.text.isEmpty ? "" : " \(http.text)")\(http.url.map { " for \($0)" } ?? "")."
        }
        return error.sentence(for: source, opening: false, unresolvedHost: lines.unresolvedHost)
    }

    /// Why an end of file came too early, or `nil` when the stream really ended complete.
    ///
    /// The played media is incomplete when it has a hole or stops well before its declared end; then the
    /// reason names what FFmpeg reported (a skipped HLS/DASH segment, a body shorter than its length).
    /// A segment FFmpeg skipped while the played media is complete belonged to a variant that is not
    /// played (opening probes them all) and does not count.
    /// - Parameters:
    ///   - readingSegments: how many of `lines.failedSegments` were logged before reading started; later
    ///     ones are preferred, as they belong to the played variant.
    ///   - playlist: FFmpeg's playlist index of the played HLS variant (the variant's position when the
    ///     master lists no alternative renditions); its segments are preferred.
    package static func earlyEnd(
        source: String, lines: FFmpegLines, loaded: TimeRanges, declared: TruncationRule.Declared?, readingSegments: Int = 0,
        playlist: Int? = nil
    ) -> String? {
        if let cut = lines.prematureEnd {
            let position = loaded.end.map { " at media time \(TextFormat.seconds($0))" } ?? ""
            return "\(source) ended early\(position): the connection closed after \(cut.received) of \(cut.expected) bytes."
        }
        let failed = lines.failedSegments
        let segment = failed.dropFirst(readingSegments).first ?? failed.first { $0.playlist == playlist } ?? failed.first
        guard let end = loaded.end else {
            return "\(source) ended before any playable media arrived\(segment.map { ": \(describe($0))" } ?? "")."
        }
        if loaded.ranges.count > 1, let segment {
            let hole = loaded.ranges[0].end
            return "\(source) is missing media from \(TextFormat.seconds(hole)): \(describe(segment))."
        }
        if let declared, case .truncated = TruncationRule.judge(declared, receivedEnd: end) {
            // `loaded` counts from the playable start: its end is the media read.
            return TruncationRule.sentence(source: source, declared: declared.duration, read: end, cause: segment.map(describe))
        }
        return nil
    }

    /// `segment http://.../seg002.ts could not be loaded (HTTP 404 Not Found)`.
    static func describe(_ segment: FFmpegLines.FailedSegment) -> String {
        let name = segment.url ?? "\(segment.sequence) of variant \(segment.playlist)"
        let why = segment.error.map { " (HTTP \($0.status)\($0.text.isEmpty ? "" : " \($0.text)"))" } ?? ""
        return "segment \(name) could not be loaded\(why)"
    }

    // MARK: Before receiving

    /// An input playlist or manifest larger than bufprobe reads as one.
    static func tooLarge(_ tooLarge: PrefetchedInput.TooLarge, source: String) -> String {
        let size = tooLarge.declaredSize.map { " (\(TextFormat.bytes($0)) by its Content-Length)" } ?? ""
        let limit = "\(tooLarge.limit >> 20) MiB"
        return "\(source) was not played: the playlist \(tooLarge.url) is larger than \(limit)\(size), more than bufprobe reads as one playlist (a body that never ends, or a live playlist that never slides its window?)."
    }

    /// The request policy refuses the input itself.
    static func notRequested(_ source: String, why: String) -> String { "\(source) was not requested: it \(why)." }

    /// The request policy refuses a URL the input's DASH manifest leads to.
    static func manifestRefused(_ source: String, leadsTo url: String, why: String) -> String {
        "\(source) was not read: its DASH manifest leads to \(url), which \(why)."
    }

    /// Ctrl-C before the input opened.
    static func interruptedOpening(_ source: String) -> String { "\(source): interrupted while opening." }

    /// A DASH manifest whose URL does not end in .mpd, under a request policy.
    static func unnamedManifest(_ source: String) -> String {
        "\(source) was not read: it is a DASH manifest not named like one (.mpd), which a request policy (--deny-private, serve --allow-target) refuses, since bufprobe checks the URLs a DASH manifest leads to only for a URL whose path ends in .mpd."
    }

    /// `--all-variants` on an input with no variants to validate.
    static func noVariants(_ source: String) -> String {
        "--all-variants: \(source) is not an HLS master playlist or a DASH manifest, so no variant was validated."
    }

    /// A live DASH manifest's only clock is of a scheme bufprobe does not read.
    static func unreadClock(scheme: String) -> String { "its only UTCTiming scheme, \(scheme), is not one bufprobe reads" }

    /// A live DASH manifest with no clock.
    static let noClock = "it has no UTCTiming element"
}
