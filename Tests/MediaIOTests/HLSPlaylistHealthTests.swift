import MediaIO
import Testing

/// The live playlist health rules as a pure function of the playlists loaded and when.
@Suite("HLSPlaylistHealth")
struct HLSPlaylistHealthTests {
    /// A live media playlist: segments `first...` named `s<N>.ts`, each `durations[i]` long (1 s by
    /// default), with a discontinuity before the sequence numbers in `discontinuities`.
    static func live(
        _ first: Int, count: Int = 3, target: Int = 2, discontinuitySequence: Int? = nil,
        discontinuities: Set<Int> = [], durations: [Int: Double] = [:], names: [Int: String] = [:], endList: Bool = false
    ) -> Result<HLSPlaylist, HLSPlaylistError> {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        if let discontinuitySequence { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        for index in 0..<count {
            // Wrapping: the hostile test numbers windows past Int.max, which the parser must refuse.
            let sequence = first &+ index
            if discontinuities.contains(sequence) { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXTINF:\(durations[sequence] ?? 2.0),")
            lines.append(names[sequence] ?? "s\(sequence).ts")
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return Result { () throws(HLSPlaylistError) in try HLSPlaylist.parse(lines.joined(separator: "\n")) }
    }

    /// Feeds `loads` (time, playlist) in order and returns the health record.
    static func judge(_ loads: [(Double, Result<HLSPlaylist, HLSPlaylistError>)]) -> HLSPlaylistHealth {
        var health = HLSPlaylistHealth(url: "http://h/live.m3u8")
        for (time, load) in loads { health.observe(load, at: time) }
        return health
    }

    @Test("a healthy sliding window, reloaded every second with unchanged reloads between, has no events")
    func healthyWindow() {
        // A segment every 2 s; reloads every 1 s see every other one unchanged.
        let loads = (0..<20).map { reload in (Double(reload), Self.live(reload / 2)) }
        let health = Self.judge(loads)
        #expect(health.events.isEmpty, "\(health.events.map(\.message))")
        #expect(health.reloads == 20)
        #expect(HLSPlaylistHealth.Kind.allCases.allSatisfy { health.counts[$0] == 0 })
    }

    @Test("discontinuities sliding out with the discontinuity sequence advancing by their number are healthy")
    func discontinuitiesSlideOutCorrectly() {
        // Discontinuities before segments 3 and 4; when segment N slides out with its tag, the
        // discontinuity sequence goes up by one.
        let tagged: Set<Int> = [3, 4]
        let loads = (0..<8).map { first in
            let removed = tagged.filter { $0 < first }.count
            return (Double(first) * 2, Self.live(first, discontinuitySequence: 10 + removed, discontinuities: tagged))
        }
        let health = Self.judge(loads)
        #expect(health.events.isEmpty, "\(health.events.map(\.message))")
        // Two segments slid out at once (3 and 4, both tagged): +2.
        let jump = Self.judge([
            (0, Self.live(3, discontinuitySequence: 5, discontinuities: tagged)),
            (2, Self.live(5, discontinuitySequence: 7, discontinuities: tagged)),
        ])
        #expect(jump.events.isEmpty, "\(jump.events.map(\.message))")
    }

    @Test("the media sequence going down is one media_sequence_regression naming both numbers")
    func regression() {
        let health = Self.judge([(0, Self.live(10)), (1, Self.live(11)), (2, Self.live(4))])
        #expect(health.events.map(\.kind) == [.mediaSequenceRegression])
        #expect(health.counts[.mediaSequenceRegression] == 1)
        let event = health.events.first
        #expect(event?.at == 2)
        #expect(event?.mediaSequence == 4)
        #expect(event?.message.contains("http://h/live.m3u8") == true)
        #expect(event?.message.contains("from media sequence 11 to 4") == true, "\(event?.message ?? "")")
    }

    @Test("the discontinuity sequence going down, or not advancing for a tagged segment that slid out, is an error")
    func discontinuityErrors() {
        let down = Self.judge([(0, Self.live(5, discontinuitySequence: 3)), (2, Self.live(6, discontinuitySequence: 2))])
        #expect(down.events.map(\.kind) == [.discontinuitySequenceError])
        #expect(down.events.first?.message.contains("from discontinuity sequence 3 to 2") == true)

        // Segment 5 carried a discontinuity and slid out; the sequence stayed at 3.
        let stuck = Self.judge([
            (0, Self.live(5, discontinuitySequence: 3, discontinuities: [5])),
            (2, Self.live(6, discontinuitySequence: 3, discontinuities: [5])),
        ])
        #expect(stuck.events.map(\.kind) == [.discontinuitySequenceError])
        #expect(stuck.events.first?.message.contains("4 was due") == true, "\(stuck.events.map(\.message))")

        // Advancing with no discontinuity sliding out is wrong too.
        let extra = Self.judge([(0, Self.live(5, discontinuitySequence: 3)), (2, Self.live(6, discontinuitySequence: 4))])
        #expect(extra.events.map(\.kind) == [.discontinuitySequenceError])

        // The window jumped past everything it listed: only a lower bound is known.
        let jumped = Self.judge([
            (0, Self.live(5, discontinuitySequence: 3, discontinuities: [6])),
            (9, Self.live(20, discontinuitySequence: 3)),
        ])
        #expect(jumped.events.map(\.kind) == [.discontinuitySequenceError])
        let jumpedFine = Self.judge([
            (0, Self.live(5, discontinuitySequence: 3, discontinuities: [6])),
            (9, Self.live(20, discontinuitySequence: 9)),
        ])
        #expect(jumpedFine.events.isEmpty, "\(jumpedFine.events.map(\.message))")
    }

    @Test("a playlist unchanged for more than 1.5x its target duration is stale once per spell, never with ENDLIST")
    func stale() {
        // Target 2 s: stale past 3 s without a change.
        let health = Self.judge([
            (0, Self.live(1)), (1, Self.live(1)), (2, Self.live(1)), (3, Self.live(1)), (3.5, Self.live(1)),
            (4, Self.live(1)), (5, Self.live(2)), (6, Self.live(2)), (8.5, Self.live(2)),
        ])
        #expect(health.events.map(\.kind) == [.stale, .stale])
        #expect(health.events.map(\.at) == [3.5, 8.5])
        #expect(health.events.first?.mediaSequence == 1)
        #expect(health.events.first?.message.contains("3.500 s") == true, "\(health.events.map(\.message))")

        let exactly = Self.judge([(0, Self.live(1)), (3, Self.live(1))])
        #expect(exactly.events.isEmpty)
        let ended = Self.judge([(0, Self.live(1, endList: true)), (10, Self.live(1, endList: true))])
        #expect(ended.events.isEmpty)
    }

    @Test("a segment whose rounded duration exceeds the target duration is flagged once, when it first appears")
    func overTarget() {
        // 2.5 rounds to 3 (over 2); 2.4 rounds to 2 (not over).
        let durations: [Int: Double] = [2: 2.5, 3: 2.4]
        let health = Self.judge([
            (0, Self.live(0, durations: durations)), (2, Self.live(1, durations: durations)),
            (4, Self.live(2, durations: durations)),
            // A regressing window lists segment 2 again: not flagged twice.
            (6, Self.live(0, durations: durations)),
        ])
        #expect(health.counts[.segmentOverTargetDuration] == 1)
        let event = health.events.first { $0.kind == .segmentOverTargetDuration }
        #expect(event?.mediaSequence == 2)
        #expect(event?.at == 0)
        #expect(event?.message.contains("media sequence 2 (s2.ts) at 2.500 s") == true, "\(event?.message ?? "")")
    }

    @Test("segments removed from the end of the window without the sequence advancing are segment_count_shrink")
    func shrink() {
        let same = Self.judge([(0, Self.live(7, count: 4)), (1, Self.live(7, count: 3))])
        #expect(same.events.map(\.kind) == [.segmentCountShrink])
        #expect(same.events.first?.message.contains("media sequence 7 to 10 (4 segments), now media sequence 7 to 9 (3 segments)") == true,
            "\(same.events.map(\.message))")
        // One slid out at the start, two removed from the end: the end went back.
        let ends = Self.judge([(0, Self.live(7, count: 4)), (2, Self.live(8, count: 2))])
        #expect(ends.events.map(\.kind) == [.segmentCountShrink])
        // A window that shrinks from the start only (the sequence advances) is fine.
        let start = Self.judge([(0, Self.live(7, count: 4)), (2, Self.live(9, count: 2))])
        #expect(start.events.isEmpty)
    }

    @Test("a sequence number naming another URI, and a changed target duration, are flagged")
    func uriAndTargetChanges() {
        let uri = Self.judge([(0, Self.live(3)), (2, Self.live(4, names: [5: "other.ts"]))])
        #expect(uri.events.map(\.kind) == [.segmentURIChanged])
        #expect(uri.events.first?.mediaSequence == 5)
        // A signing token in the query that changes on each reload is not another segment.
        let token = Self.judge([
            (0, Self.live(3, names: [4: "s4.ts?token=a", 5: "s5.ts?token=a"])),
            (2, Self.live(4, names: [4: "s4.ts?token=b", 5: "s5.ts?token=b"])),
        ])
        #expect(token.events.isEmpty, "\(token.events.map(\.message))")
        let target = Self.judge([(0, Self.live(3)), (2, Self.live(4, target: 4))])
        #expect(target.events.map(\.kind) == [.targetDurationChanged])
    }

    @Test("a reload that cannot be parsed is a parse_error and the next one is compared with the last good one")
    func parseError() {
        var health = HLSPlaylistHealth(url: "u")
        health.observe(Self.live(3), at: 0)
        let bad = Result { () throws(HLSPlaylistError) in try HLSPlaylist.parse("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:x\n") }
        let events = health.observe(bad, at: 1)
        #expect(events.map(\.kind) == [.parseError])
        health.observe(Self.live(2), at: 2)
        #expect(health.events.map(\.kind) == [.parseError, .mediaSequenceRegression])
        #expect(health.reloads == 3)
    }

    @Test("hostile sequence numbers never trap: extremes, jumps across the whole range, and overflowing windows")
    func hostileNumbers() {
        let loads: [(Double, Result<HLSPlaylist, HLSPlaylistError>)] = [
            (0, Self.live(Int.max - 3, count: 3, discontinuitySequence: Int.max, discontinuities: [Int.max - 2])),
            (1, Self.live(Int.min, count: 3, discontinuitySequence: Int.min)),
            (2, Self.live(Int.max - 3, count: 3, discontinuitySequence: Int.max)),
            (3, Self.live(Int.min, count: 0)),
            (4, Self.live(Int.max - 2, count: 2, target: 0)),
        ]
        #expect(loads.allSatisfy { (try? $0.1.get()) != nil })
        let health = Self.judge(loads)
        #expect(health.counts[.mediaSequenceRegression] == 2)
        #expect(health.counts[.targetDurationChanged] == 1)
        // A window numbered past Int.max does not parse: a sentence, not a trap.
        let past = Self.live(Int.max, count: 2)
        #expect((try? past.get()) == nil)
    }

    @Test("events are kept up to maxEvents while the counts go on")
    func boundedEvents() {
        var health = HLSPlaylistHealth(url: "u")
        let regressions = HLSPlaylistHealth.maxEvents + 25
        for reload in 0..<(2 * regressions) {
            // Every other reload goes back: a regression each time.
            health.observe(Self.live(reload % 2 == 0 ? 100 : 50), at: Double(reload))
        }
        #expect(health.events.count == HLSPlaylistHealth.maxEvents)
        #expect(health.counts[.mediaSequenceRegression] == regressions)
    }
}
