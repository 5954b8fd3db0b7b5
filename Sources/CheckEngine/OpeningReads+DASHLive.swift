import Foundation
import MediaIO
import InputReading

// A live DASH input's reads: the manifest and its clock, read before FFmpeg opens it, and FFmpeg's own
// requests, handed to the machine as events (its rules: `CheckMachine+Live.swift`).
extension OpeningReads {
    /// What reading a DASH input's manifest before FFmpeg found (`prepareDASHLive()`).
    enum DASHPreread: Equatable {
        /// Not a remote DASH input, not live, or its manifest could not be read: FFmpeg opens it as any input.
        case notLive
        /// A live manifest, told to the machine: FFmpeg's requests are logged.
        case live
        /// The manifest's request had no answer within `--timeout`: the check fails with this sentence.
        case unanswered(String)
    }

    /// For a remote DASH input: reads the manifest before FFmpeg does (one more request, counted in
    /// `open_time`; the input's first read, so within the whole `--timeout` as FFmpeg's open of it), and
    /// when it is live (`type="dynamic"`) reads its `UTCTiming` clock once (within `prereadBudget`; both
    /// through the same protocol whitelist, pace and request policy as the input), tells the machine
    /// (`.dashManifest`); returns `.live`, so that FFmpeg's requests are logged. `.notLive` for other
    /// inputs, or when the manifest cannot be read (FFmpeg's open then says why), except that a manifest
    /// request with no answer within `--timeout` is `.unanswered` with its sentence (`unansweredInput`):
    /// the check fails with it, rather than wait as long again for FFmpeg's request.
    ///
    /// Why the player's own requests are judged rather than bufprobe reloading the manifest itself at
    /// `minimumUpdatePeriod`: the questions (did the player reload in time, did it ask for segments before
    /// they existed, which listed segment was missing) are about what the player did and what the origin
    /// answered it; a second reader would double the origin's load and measure bufprobe instead.
    func prepareDASHLive() -> DASHPreread {
        guard InputKind(source).isNetwork, ContainerFormat(namedBy: source) == .dash else { return .notLive }
        let requested = InputKind.ffmpegURL(for: settings.requestURL(for: source))
        let bytes: [UInt8]
        let location: String
        let manifestDeadline = prereadDeadline(seconds: settings.timeout)
        do {
            defer { manifestDeadline.finish() }
            // Not handed to FFmpeg (it reads the manifest again), but read as the input's own request is.
            let manifest = try PrefetchedInput.read(
                url: requested, demuxer: "dash", options: settings.formatOptions, interrupter: manifestDeadline.interrupter)
            bytes = manifest.bytes
            location = manifest.location
        } catch {
            return unansweredInput(error, deadline: manifestDeadline).map(DASHPreread.unanswered) ?? .notLive
        }
        let deadline = prereadDeadline()
        defer { deadline.finish() }
        let reader = deadline.interrupter
        let readAt = now()
        guard let manifest = try? DASHLiveManifest.parse(bytes), manifest.isDynamic else { return .notLive }
        var read = CheckEvent.DASHManifestRead(
            requested: requested, location: location, text: String(decoding: bytes, as: UTF8.self), readAt: readAt)
        let (timing, skipped) = manifest.usableUTCTiming
        if let timing {
            switch UTCTimingSource.offset(
                of: timing, manifestURL: location, manifestReadAt: unixAtStart + readAt, options: settings.formatOptions,
                interrupter: reader)
            {
            case .success(let reading):
                read.timing = .init(scheme: timing.schemeIdUri, value: timing.value, offset: reading.offset)
            case .failure(let error):
                read.clockProblem = error.reason
            }
        } else if let scheme = skipped.first {
            read.clockProblem = CheckSentence.unreadClock(scheme: scheme)
        } else {
            read.clockProblem = CheckSentence.noClock
        }
        deliver(.dashManifest(read))
        return .live
    }
}
