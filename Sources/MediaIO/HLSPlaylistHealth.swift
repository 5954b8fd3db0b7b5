import Foundation

/// The health of one live HLS media playlist across its reloads, judged as HLS monitors judge it against
/// RFC 8216: a pure function of the playlists read and the times they were read, no I/O and no clock.
///
/// Feed every load with `observe(_:at:)`; it compares the playlist with a summary of the previous one (the
/// only thing kept, so memory does not grow with the reloads) and records each problem as an `Event`:
///
/// - `media_sequence_regression`: `#EXT-X-MEDIA-SEQUENCE` went down (§6.2.1: it must never decrease).
/// - `discontinuity_sequence_error`: `#EXT-X-DISCONTINUITY-SEQUENCE` went down, or did not advance by the
///   number of segments carrying `#EXT-X-DISCONTINUITY` that slid out of the window (§6.2.2).
/// - `stale`: a reload found the playlist unchanged more than 1.5 x its target duration after the last
///   change seen (§6.2.1 has the server publish a new segment within a target duration; monitors allow
///   half as much again), once per stale spell.
/// - `segment_over_target_duration`: a segment whose `#EXTINF`, rounded to the nearest integer, exceeds
///   `#EXT-X-TARGETDURATION` (§4.3.3.1), once per segment.
/// - `segment_count_shrink`: the window's end moved back: segments removed from the end, or fewer segments
///   on the same media sequence (§6.2.1: only segments at the start may be removed).
/// - `segment_uri_changed`: a media sequence number now names another URI than in the previous load, the
///   query left out (§6.2.1: a segment's URI and sequence number are fixed once published; CDNs rotate
///   signing tokens in the query, which players follow).
/// - `target_duration_changed`: `#EXT-X-TARGETDURATION` changed (§6.2.1 forbids it).
/// - `parse_error`: the playlist could not be parsed (the reload is counted, the previous summary kept).
///
/// A playlist with `#EXT-X-ENDLIST` is not stale. Hostile numbers never trap: sequence arithmetic that
/// would overflow is treated as a jump past the whole window.
public struct HLSPlaylistHealth: Sendable {
    /// What went wrong; the raw value is the stable name (JSON, metric labels).
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The media sequence went down between reloads.
        case mediaSequenceRegression = "media_sequence_regression"
        /// The discontinuity sequence went down or did not advance as segments with discontinuities slid out.
        case discontinuitySequenceError = "discontinuity_sequence_error"
        /// The playlist stopped updating for more than 1.5 x its target duration.
        case stale
        /// A segment's rounded duration exceeds the target duration.
        case segmentOverTargetDuration = "segment_over_target_duration"
        /// Segments disappeared from the end of the window.
        case segmentCountShrink = "segment_count_shrink"
        /// A media sequence number names a different segment URI than before.
        case segmentURIChanged = "segment_uri_changed"
        /// The target duration changed.
        case targetDurationChanged = "target_duration_changed"
        /// A reload could not be parsed.
        case parseError = "parse_error"
    }

    /// One problem found at one reload.
    public struct Event: Sendable, Hashable {
        /// What went wrong.
        public var kind: Kind
        /// When the reload that showed it was read, in the caller's seconds.
        public var at: Double
        /// The media sequence number the problem is about (the segment, or the playlist's first), when known.
        public var mediaSequence: Int?
        /// One sentence naming the playlist, what happened and the sequence numbers.
        public var message: String
    }

    /// The playlist's URL, as the sentences name it.
    public let url: String
    /// Loads observed (parse failures included).
    public private(set) var reloads = 0
    /// How many problems of each kind were found (every kind present, 0 when none).
    public private(set) var counts: [Kind: Int] = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, 0) })
    /// The problems found, oldest first, at most `maxEvents` (`counts` keeps counting past it).
    public private(set) var events: [Event] = []
    /// How many events are kept: a playlist broken at every reload of a long check must not grow memory.
    public static let maxEvents = 100
    /// The factor of the target duration after which an unchanged playlist is stale.
    public static let staleFactor = 1.5
    /// `staleFactor` as the sentences print it: "1.5x".
    public static var staleFactorText: String { "\(staleFactor)x" }

    private var previous: Summary?
    /// When the content last changed (or was first seen).
    private var lastChange: Double?
    /// Whether the current unchanged spell was already reported as stale.
    private var staleReported = false
    /// One past the highest media sequence number judged so far: a segment is checked against the target
    /// duration once, even when a regressing window lists it again.
    private var judgedEnd: Int?

    /// What is kept of the previous load: its numbers and, per segment, a hash of its URI and whether a
    /// discontinuity precedes it.
    private struct Summary: Equatable {
        var mediaSequence: Int
        var discontinuitySequence: Int
        var targetDuration: Double?
        var hasEndList: Bool
        var uriHashes: [Int]
        var discontinuities: [Bool]

        init(_ playlist: HLSPlaylist) {
            mediaSequence = playlist.mediaSequence
            discontinuitySequence = playlist.discontinuitySequence
            targetDuration = playlist.targetDuration
            hasEndList = playlist.hasEndList
            // Without the query: CDNs sign segment URIs with tokens that change on every reload, which a
            // player follows without trouble.
            uriHashes = playlist.segments.map { segment in
                (segment.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").hashValue
            }
            discontinuities = playlist.segments.map(\.discontinuity)
        }

        var count: Int { uriHashes.count }
        /// `media sequence 4 to 6 (3 segments)`.
        var window: String {
            // end > mediaSequence when there are segments, so end - 1 cannot go below Int.min.
            count == 0 ? "no segments (media sequence \(mediaSequence))"
                : "media sequence \(mediaSequence) to \(end - 1) (\(count) segment\(count == 1 ? "" : "s"))"
        }
        /// One past the last segment's sequence number (saturating).
        var end: Int { mediaSequence.addingReportingOverflow(count).overflow ? .max : mediaSequence + count }
    }

    /// A health record for the playlist at `url`.
    public init(url: String) {
        self.url = url
    }

    /// Judges one load of the playlist, read at `time` (seconds, any origin, never going back), against
    /// the previous one; returns the events it added. A master playlist is not judged.
    @discardableResult
    public mutating func observe(_ load: Result<HLSPlaylist, HLSPlaylistError>, at time: Double) -> [Event] {
        if case .success(let parsed) = load, parsed.kind != .media { return [] }
        reloads += 1
        let kept = events.count
        func record(_ kind: Kind, _ sequence: Int?, _ message: @autoclosure () -> String) {
            counts[kind, default: 0] += 1
            guard events.count < Self.maxEvents else { return }
            events.append(Event(kind: kind, at: time, mediaSequence: sequence, message: message()))
        }
        let playlist: HLSPlaylist
        switch load {
        case .failure(let error):
            record(.parseError, nil, "A reload of the playlist \(url) could not be parsed: \(error)")
            return Array(events[kept...])
        case .success(let parsed):
            playlist = parsed
        }
        let current = Summary(playlist)
        let at = Self.seconds(time)
        defer { previous = current }

        // Over target: each segment once, when it first appears.
        for segment in playlist.segments where segment.sequence >= judgedEnd ?? .min
            && Self.isOverTarget(segment, playlist.targetDuration)
        {
            record(.segmentOverTargetDuration, segment.sequence, overTarget(segment, playlist, at))
        }
        judgedEnd = max(judgedEnd ?? .min, current.end)

        guard let previous else {
            lastChange = time
            return Array(events[kept...])
        }

        // Stale: unchanged, and for long enough since the last change seen.
        if current == previous {
            if !current.hasEndList, !staleReported, let target = current.targetDuration, target > 0,
                let changed = lastChange, time - changed > Self.staleFactor * target
            {
                staleReported = true
                record(
                    .stale, current.mediaSequence,
                    "The playlist \(url) has not changed for \(Self.seconds(time - changed)) (more than \(Self.staleFactorText) its \(Self.seconds(target)) target duration) at \(at), still listing \(current.window).")
            }
            return Array(events[kept...])
        }
        lastChange = time
        staleReported = false

        if let before = previous.targetDuration, let now = current.targetDuration, before != now {
            record(
                .targetDurationChanged, current.mediaSequence,
                "The playlist \(url) changed its target duration from \(Self.seconds(before)) to \(Self.seconds(now)) at \(at).")
        }

        if current.mediaSequence < previous.mediaSequence {
            record(
                .mediaSequenceRegression, current.mediaSequence,
                "The playlist \(url) went back from media sequence \(previous.mediaSequence) to \(current.mediaSequence) at \(at).")
        } else {
            // Segments that slid out of the window since the last load; nil when the window jumped
            // further than the previous load showed (or the distance does not fit an Int).
            let (advance, overflow) = current.mediaSequence.subtractingReportingOverflow(previous.mediaSequence)
            let slid = !overflow && advance <= previous.count ? advance : nil
            let removedDiscontinuities = previous.discontinuities.prefix(slid ?? previous.count).filter { $0 }.count
            let (expected, expectedOverflow) = previous.discontinuitySequence.addingReportingOverflow(removedDiscontinuities)
            if current.discontinuitySequence < previous.discontinuitySequence {
                record(
                    .discontinuitySequenceError, current.mediaSequence,
                    "The playlist \(url) went back from discontinuity sequence \(previous.discontinuitySequence) to \(current.discontinuitySequence) at \(at) (media sequence \(previous.mediaSequence) to \(current.mediaSequence)).")
            } else if !expectedOverflow,
                slid == nil ? current.discontinuitySequence < expected : current.discontinuitySequence != expected
            {
                let segments = slid.map { "\($0) segment\($0 == 1 ? "" : "s")" } ?? "more segments than it listed"
                record(
                    .discontinuitySequenceError, current.mediaSequence,
                    "The playlist \(url) has discontinuity sequence \(current.discontinuitySequence) at \(at), but \(slid == nil ? "at least " : "")\(expected) was due: \(segments) slid out (media sequence \(previous.mediaSequence) to \(current.mediaSequence)) carrying \(removedDiscontinuities) discontinuit\(removedDiscontinuities == 1 ? "y" : "ies") onto \(previous.discontinuitySequence).")
            }

            if current.end < previous.end {
                record(
                    .segmentCountShrink, current.mediaSequence,
                    "The playlist \(url) lost segments from the end of its window at \(at): it listed \(previous.window), now \(current.window).")
            }

            // Sequence numbers both loads list must name the same URIs.
            let first = current.mediaSequence
            let last = min(previous.end, current.end)
            if first < last {
                for sequence in first..<last {
                    let old = sequence - previous.mediaSequence
                    let new = sequence - current.mediaSequence
                    guard previous.uriHashes.indices.contains(old), current.uriHashes.indices.contains(new) else { break }
                    if previous.uriHashes[old] != current.uriHashes[new] {
                        let uri = playlist.segments.indices.contains(new) ? playlist.segments[new].uri : "another URI"
                        record(
                            .segmentURIChanged, sequence,
                            "The playlist \(url) lists media sequence \(sequence) as \(uri) at \(at), a different URI than before.")
                        break
                    }
                }
            }
        }
        return Array(events[kept...])
    }

    /// Whether the segment's duration, rounded to the nearest integer, exceeds the target duration.
    private static func isOverTarget(_ segment: HLSPlaylist.Segment, _ target: Double?) -> Bool {
        guard let target else { return false }
        return segment.duration.rounded() > target
    }

    private func overTarget(_ segment: HLSPlaylist.Segment, _ playlist: HLSPlaylist, _ at: String) -> String {
        let target = playlist.targetDuration.map(Self.seconds) ?? "unknown"
        return "The playlist \(url) lists media sequence \(segment.sequence) (\(segment.uri)) at \(Self.seconds(segment.duration)), longer than its \(target) target duration, at \(at)."
    }

    /// `1.500 s`, as the reports write seconds; never traps.
    private static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value) s" }
        return String(format: "%.3f s", value)
    }
}
