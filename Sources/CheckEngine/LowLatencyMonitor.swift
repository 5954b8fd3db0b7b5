package import MediaIO
import BufprobeOutput

/// The LL-HLS rules (RFC 8216bis) as a pure state machine: what `LowLatencyHLSClient` observed (playlists,
/// blocking reloads, parts appended) and what the demuxer read from those parts (packets by byte position)
/// go in with the check's time; problems and the `low_latency` report come out. No clock, no I/O, so that
/// every rule is tested with made-up playlists in virtual time.
///
/// Rules, each problem one event (a sentence naming the playlist or part) and a count by kind:
/// - `part_hold_back_too_short`: `PART-HOLD-BACK` below twice `PART-TARGET` (§4.4.3.8), or absent.
/// - `part_over_target`: an `EXT-X-PART` whose `DURATION` exceeds `PART-TARGET` (§4.4.4.9), each part once.
/// - `independent_without_keyframe`: a part flagged `INDEPENDENT=YES` whose first video packet is not a
///   keyframe (libavformat's key flag).
/// - `preload_hint_unfulfilled`: an `EXT-X-PRELOAD-HINT` of `TYPE=PART` whose URI is not the next part the
///   playlist lists, or is not listed within `hintPatience` part targets.
/// - `delta_update_mismatch`: a delta update (`_HLS_skip=YES`) whose segments, numbered after its
///   `SKIPPED-SEGMENTS`, are not the segments the last full playlist lists under those numbers.
/// - `blocking_reload_ignored`: a blocking reload answered without the part it asked for.
/// - `request_failed`: a playlist, part or map the client could not fetch.
package struct LowLatencyMonitor: Sendable {
    /// A problem's kind; raw values are the JSON and metric names.
    package enum Kind: String, Sendable, CaseIterable {
        /// `PART-HOLD-BACK` < 2 x `PART-TARGET`, or missing.
        case partHoldBackTooShort = "part_hold_back_too_short"
        /// A part longer than `PART-TARGET`.
        case partOverTarget = "part_over_target"
        /// An `INDEPENDENT` part that does not start with a keyframe.
        case independentWithoutKeyframe = "independent_without_keyframe"
        /// A preload hint that did not come true.
        case preloadHintUnfulfilled = "preload_hint_unfulfilled"
        /// A delta update whose skipped count does not match the full playlist.
        case deltaUpdateMismatch = "delta_update_mismatch"
        /// A blocking reload answered at once without the part asked for.
        case blockingReloadIgnored = "blocking_reload_ignored"
        /// A request of the LL-HLS client failed.
        case requestFailed = "request_failed"
    }

    /// How many part targets a preload hint may take to be listed.
    package static let hintPatience = 3.0
    /// Events kept per kind; the counts go on.
    package static let maxEventsPerKind = 10
    /// Parts remembered for matching packets to them (the newest).
    static let partsRemembered = 64
    /// Slack for the decimal rounding of a `DURATION` against `PART-TARGET`, seconds.
    static let durationSlack = 0.001

    /// An anchor between the media time of a part's first packet and the part's program date-time.
    package struct Anchor: Sendable, Hashable {
        /// The packet's presentation time, seconds, as the demuxer gave it.
        package var mediaTime: Double
        /// The part's `EXT-X-PROGRAM-DATE-TIME`, Unix seconds.
        package var unixTime: Double
    }

    /// A part appended to the stream, and what its packets showed so far.
    private struct PlayedPart {
        /// The part as listed.
        var part: HLSPlaylist.Part
        /// Its bytes in the stream.
        var range: Range<Int64>
        /// Whether a video packet of it was read (the first is the keyframe checked).
        var sawVideo = false
        /// Whether any packet of it was read (the first anchors an audio-only stream).
        var sawAny = false
    }

    /// A `TYPE=PART` preload hint waiting to come true.
    private struct Hint {
        /// The hinted URI.
        var uri: String
        /// When it was first seen (check seconds).
        var at: Double
        /// The last part listed when it was hinted.
        /// The last part listed when it was hinted: the hint is the part after it.
        var after: (sequence: Int, index: Int)
    }

    /// The report so far.
    package private(set) var report: CheckReport.LowLatencyReport
    /// Seconds each blocking reload took.
    private var holds: [Double] = []
    /// The newest part whose duration was checked: each part once.
    private var newestChecked: (sequence: Int, index: Int)?
    /// The last full (not delta) playlist, what a delta update is compared with.
    private var lastFull: HLSPlaylist?
    /// The hint waiting to come true.
    private var hint: Hint?
    /// The newest parts appended (`partsRemembered`), for matching packets to them.
    private var played: [PlayedPart] = []
    /// Whether the first playlist's server control was read.
    private var sawFirstPlaylist = false

    /// A monitor for the media playlist at `playlist`.
    package init(playlist: String) {
        report = CheckReport.LowLatencyReport(playlist: playlist)
    }

    /// A playlist loaded at `at` (check seconds), taking `seconds`; `asked` for a blocking reload.
    package mutating func loaded(
        _ playlist: HLSPlaylist, url: String, at: Double, seconds: Double, asked: LowLatencyHLSClient.Request?
    ) {
        if !sawFirstPlaylist {
            sawFirstPlaylist = true
            report.partTarget = playlist.partTarget
            report.partHoldBack = playlist.partHoldBack
            report.canBlockReload = playlist.canBlockReload
            report.canSkipUntil = playlist.canSkipUntil
            if let target = playlist.partTarget {
                if let holdBack = playlist.partHoldBack {
                    if holdBack < 2 * target {
                        add(.partHoldBackTooShort, at: at, url: url, "\(url) sets PART-HOLD-BACK to \(TextFormat.seconds(holdBack)), less than twice its PART-TARGET of \(TextFormat.seconds(target)) (RFC 8216bis 4.4.3.8): players start too close to the edge and stall.")
                    }
                } else {
                    add(.partHoldBackTooShort, at: at, url: url, "\(url) has EXT-X-PART-INF but no PART-HOLD-BACK in EXT-X-SERVER-CONTROL (RFC 8216bis 4.4.3.8 requires one).")
                }
            }
        }
        let parts = playlist.allParts
        checkDurations(parts, target: report.partTarget ?? playlist.partTarget, url: url, at: at)
        // A delta numbered wrongly says nothing true about parts or hints: only its mismatch is reported.
        var mismatched = false
        if let asked, asked.skip, playlist.isDeltaUpdate {
            report.deltaUpdates += 1
            mismatched = checkDelta(playlist, url: url, at: at)
        }
        if let asked {
            report.blockingReloads += 1
            holds.append(seconds)
            if mismatched {
                // Neither held nor ignored: the part asked for cannot be told from the wrong numbering.
            } else if LowLatencyHLSClient.find(sequence: asked.sequence, index: asked.part, in: playlist) != nil {
                report.blockingReloadsHeld += 1
            } else {
                report.blockingReloadsIgnored += 1
                add(.blockingReloadIgnored, at: at, url: url, "\(url) answered a blocking reload in \(TextFormat.seconds(seconds)) without the part it asked for (part \(asked.part) of segment \(asked.sequence)): the server ignores _HLS_msn/_HLS_part although it declares CAN-BLOCK-RELOAD=YES, so players fall back to polling.")
            }
        }
        if !playlist.isDeltaUpdate { lastFull = playlist }
        if !mismatched { checkHint(playlist, parts: parts, url: url, at: at) }
    }

    /// A part's bytes were appended to the stream at `range`.
    package mutating func appended(_ part: HLSPlaylist.Part, range: Range<Int64>, wholeSegment: Bool) {
        if wholeSegment { report.segmentsPlayed += 1 } else { report.partsPlayed += 1 }
        played.append(PlayedPart(part: part, range: range))
        if played.count > Self.partsRemembered { played.removeFirst(played.count - Self.partsRemembered) }
    }

    /// A request failed (the client's sentence).
    package mutating func failed(_ sentence: String, at: Double) {
        add(.requestFailed, at: at, url: report.playlist, sentence)
    }

    /// A packet the demuxer read at byte `position` of the stream: checks an `INDEPENDENT` part's first video
    /// packet, and returns the anchor of a part's first packet of `anchorStream` (the video, else any) to
    /// its program date-time.
    package mutating func packet(
        position: Int64?, isVideo: Bool, keyframe: Bool, mediaTime: Double?, anchorsOnVideo: Bool, at: Double
    ) -> Anchor? {
        guard let position, let index = played.lastIndex(where: { $0.range.contains(position) }) else { return nil }
        var anchor: Anchor?
        let part = played[index].part
        let anchoring = anchorsOnVideo ? isVideo && !played[index].sawVideo : !played[index].sawAny
        if anchoring, let mediaTime, let date = part.programDateTime {
            anchor = Anchor(mediaTime: mediaTime, unixTime: date)
        }
        if isVideo, !played[index].sawVideo {
            played[index].sawVideo = true
            if part.independent, !keyframe {
                add(.independentWithoutKeyframe, at: at, url: part.uri, "\(part.uri) (part \(part.index) of segment \(part.sequence) of \(report.playlist)) is flagged INDEPENDENT=YES but its first video frame is not a keyframe: a player starting or switching there shows garbage until the next one.")
            }
        }
        played[index].sawAny = true
        return anchor
    }

    /// The report with the hold-time figures.
    package var finalReport: CheckReport.LowLatencyReport {
        var result = report
        if let low = holds.min(), let high = holds.max() {
            result.holdMin = JSONOutput.seconds(low)
            result.holdMax = JSONOutput.seconds(high)
            result.holdMean = JSONOutput.seconds(holds.reduce(0, +) / Double(holds.count))
        }
        return result
    }

    /// Records the start: how far behind the listed edge playing began.
    package mutating func started(behindEdge: Double) {
        report.startBehindEdge = JSONOutput.seconds(behindEdge)
    }

    // MARK: Rules

    private mutating func checkDurations(_ parts: [HLSPlaylist.Part], target: Double?, url: String, at: Double) {
        guard let target else { return }
        for part in parts {
            if let newest = newestChecked, (part.sequence, part.index) <= newest { continue }
            newestChecked = (part.sequence, part.index)
            if part.duration > target + Self.durationSlack {
                add(.partOverTarget, at: at, url: url, "\(url) lists part \(part.uri) (part \(part.index) of segment \(part.sequence)) of \(TextFormat.seconds(part.duration)), longer than its PART-TARGET of \(TextFormat.seconds(target)).")
            }
        }
    }

    /// Whether `delta` contradicts the last full playlist (reported).
    private mutating func checkDelta(_ delta: HLSPlaylist, url: String, at: Double) -> Bool {
        guard let full = lastFull else { return false }
        let known = Dictionary(full.segments.map { ($0.sequence, $0.uri) }, uniquingKeysWith: { first, _ in first })
        let overlapping = delta.segments.filter { known[$0.sequence] != nil }
        if let wrong = overlapping.first(where: { known[$0.sequence] != $0.uri }) {
            add(.deltaUpdateMismatch, at: at, url: url, "\(url) sent a delta update skipping \(delta.skippedSegments) segments whose numbering does not match the full playlist: segment \(wrong.sequence) is \(wrong.uri) in the delta but \(known[wrong.sequence] ?? "-") in the full playlist.")
            return true
        } else if overlapping.isEmpty, let first = delta.segments.first, let last = full.segments.last, first.sequence > last.sequence + 1 {
            add(.deltaUpdateMismatch, at: at, url: url, "\(url) sent a delta update whose first segment is numbered \(first.sequence) after skipping \(delta.skippedSegments), past the full playlist's last (\(last.sequence)).")
            return true
        }
        return false
    }

    private mutating func checkHint(_ playlist: HLSPlaylist, parts: [HLSPlaylist.Part], url: String, at: Double) {
        if let pending = hint {
            let next = LowLatencyHLSClient.find(sequence: pending.after.sequence, index: pending.after.index + 1, in: playlist)
            switch next {
            case .part(let part):
                if part.uri != pending.uri {
                    add(.preloadHintUnfulfilled, at: at, url: url, "\(url) hinted \(pending.uri) as the next part (EXT-X-PRELOAD-HINT) but then listed \(part.uri) there.")
                }
                hint = nil
            case .segment, nil:
                if let target = report.partTarget, at - pending.at > Self.hintPatience * target {
                    add(.preloadHintUnfulfilled, at: at, url: url, "\(url) hinted \(pending.uri) as the next part (EXT-X-PRELOAD-HINT) but did not list it within \(TextFormat.seconds(Self.hintPatience * target)) (\(TextFormat.number(Self.hintPatience)) part targets).")
                    hint = nil
                }
            }
        }
        if hint == nil, let last = parts.last, let next = playlist.preloadHints.last(where: { $0.type == "PART" }) {
            hint = Hint(uri: next.uri, at: at, after: (last.sequence, last.index))
        }
    }

    private mutating func add(_ kind: Kind, at: Double, url: String, _ message: String) {
        report.counts[kind] += 1
        if report.counts[kind] <= Self.maxEventsPerKind {
            report.events.append(.init(kind: kind.rawValue, at: JSONOutput.seconds(at), url: url, message: message))
        }
    }
}
