import PlaybackModel
import Testing

@Suite("PlaybackSession")
struct PlaybackSessionTests {
    typealias Candidate = PlaybackSession.StreamCandidate

    static let choices: [([Candidate], [Int])] = [
        ([.init(index: 0, kind: .video, isPreferred: true), .init(index: 1, kind: .audio, isPreferred: true)], [0, 1]),
        // Cover art is never played, even when libavformat calls it the best video.
        ([.init(index: 0, kind: .audio, isPreferred: true), .init(index: 1, kind: .video, isAttachedPicture: true, isPreferred: true)], [0]),
        ([.init(index: 0, kind: .video, isAttachedPicture: true), .init(index: 1, kind: .video), .init(index: 2, kind: .audio)], [1, 2]),
        // The preferred stream of a kind wins over the first one.
        ([.init(index: 0, kind: .audio), .init(index: 1, kind: .audio, isPreferred: true), .init(index: 2, kind: .other)], [1]),
        ([.init(index: 0, kind: .other)], []),
        ([], []),
    ]

    @Test("playable streams: best video then best audio, never cover art", arguments: choices)
    func playableStreams(candidates: [Candidate], expected: [Int]) {
        #expect(PlaybackSession.playableStreams(from: candidates) == expected)
    }

    static func packet(_ stream: Int, _ start: Double, _ length: Double = 1) -> MediaPacket {
        MediaPacket(stream: stream, pts: start, dts: start, duration: length, size: 100, position: nil, isKeyframe: true)
    }

    @Test("playable time is where every played stream has data; other and unseen streams change nothing")
    func intersection() {
        var session = PlaybackSession(playableStreams: [0, 1], duration: .finite(10), now: 0)
        _ = session.receive(Self.packet(0, 0, 4), now: 0)
        #expect(session.player.item.loadedTimeRanges.isEmpty)
        _ = session.receive(Self.packet(7, 0, 10), now: 0)  // a stream added after opening
        #expect(session.player.item.loadedTimeRanges.isEmpty)
        _ = session.receive(Self.packet(1, 0, 3), now: 0)
        #expect(session.received.ranges == [TimeRange(start: 0, end: 3)])
        #expect(session.player.item.loadedTimeRanges.ranges == [TimeRange(start: 0, end: 3)])
    }

    @Test("before starting, the playhead moves to the first data, which becomes time 0 in the report")
    func startAtFirstData() {
        var session = PlaybackSession(playableStreams: [0], duration: .finite(10), mediaStart: 1.4, now: 0)
        _ = session.receive(Self.packet(0, 2.0, 3), now: 0.5)
        #expect(session.origin == 2.0)
        #expect(session.player.item.currentTime == 2.0)
        #expect(session.presentationTime(3.5) == 1.5)
        _ = session.advance(to: 10)
        #expect(session.report.stalls.map(\.position) == [3])
    }

    @Test("presented times and ranges count from the playable start, the one place the origin shift is made")
    func presented() {
        var session = PlaybackSession(playableStreams: [0], duration: .finite(10), mediaStart: 1.4, now: 0)
        _ = session.receive(Self.packet(0, 2.0, 3), now: 0)
        _ = session.receive(Self.packet(0, 6.0, 1), now: 0)
        #expect(session.origin == 2.0)
        #expect(session.presentedReceived.ranges == [TimeRange(start: 0, end: 3), TimeRange(start: 4, end: 5)])
        #expect(session.presentedLoaded.ranges == session.presentedReceived.ranges)
        #expect(session.presented(TimeRange(start: 2.5, end: 4)) == TimeRange(start: 0.5, end: 2))
        #expect(session.presentedCurrentTime == 0)
        _ = session.advance(to: 1.5)
        #expect(session.presentedCurrentTime == 1.5)
        // Moved, not rebuilt: the set keeps its tolerance and its gaps.
        let sparse = TimeRanges([TimeRange(start: 2, end: 3), TimeRange(start: 3.5, end: 4)], tolerance: 0)
        #expect(session.presented(sparse).ranges == [TimeRange(start: 0, end: 1), TimeRange(start: 1.5, end: 2)])
        #expect(session.presented(sparse).tolerance == 0)
    }

    @Test("a start the viewer chose is kept: a seek before playback starts is not undone by data elsewhere")
    func chosenStartKept() {
        var session = PlaybackSession(playableStreams: [0], duration: .finite(10), now: 0)
        _ = session.seek(to: 5, now: 0)
        _ = session.receive(Self.packet(0, 0, 3), now: 0.5)
        #expect(session.player.item.currentTime == 5)
        #expect(session.origin == 0)
    }

    @Test("end of stream then play-out runs the player to its end on its own deadlines")
    func playOut() {
        var session = PlaybackSession(playableStreams: [0], duration: .finite(10), now: 0)
        _ = session.receive(Self.packet(0, 0, 4), now: 0)
        _ = session.receive(Self.packet(0, 6, 4), now: 0)
        _ = session.endOfStream(now: 0)
        let actions = session.playOut()
        #expect(actions.contains(.skippedGap(TimeRange(start: 4, end: 6))))
        #expect(session.skippedGaps == [TimeRange(start: 4, end: 6)])
        #expect(session.player.state == .ended(since: 8))
        #expect(session.report.ended)
    }
}
