import PlaybackModel
import Testing

private func item(_ ranges: [(Double, Double)], at time: Double, duration: MediaDuration = .finite(100)) -> PlaybackItem {
    var item = PlaybackItem(duration: duration)
    for (s, e) in ranges { item.loadedTimeRanges.insert(start: s, end: e) }
    item.currentTime = time
    return item
}

@Suite("PlaybackItem")
struct PlaybackItemTests {
    @Test("bufferedFraction is the end of the range holding the playhead, not the first range's end")
    func bufferedFractionUsesPlayheadRange() {
        let item = item([(0, 10), (40, 60)], at: 50)
        #expect(item.bufferedFraction == 0.6)
        #expect(item.progress == 0.5)
        #expect(item.bufferedAhead == 10)
    }

    @Test("bufferedFraction falls back to the playhead in a hole, so it never trails progress")
    func bufferedFractionInHole() {
        let item = item([(0, 10)], at: 20)
        #expect(item.bufferedFraction == 0.2)
        #expect(item.bufferedAhead == 0)
    }

    @Test("progress is clamped to 0...1 and measured from the media start")
    func progressClamped() {
        var item = PlaybackItem(duration: .finite(10), mediaStart: 2)
        item.currentTime = 7
        #expect(item.progress == 0.5)
        item.currentTime = 50
        #expect(item.progress == 1)
        item.currentTime = -5
        #expect(item.progress == 0)
        #expect(PlaybackItem(duration: .unknown).progress == 0)
    }

    @Test(
        "buffer flags follow bufferedAhead against the thresholds",
        arguments: [
            // loaded end, empty, likely to keep up, full
            (0.0, true, false, false), (0.5, false, false, false), (1.0, false, true, false),
            (50.0, false, true, true), (100.0, false, true, true),
        ])
    func flags(loadedEnd: Double, empty: Bool, likely: Bool, full: Bool) {
        let item = item(loadedEnd > 0 ? [(0, loadedEnd)] : [], at: 0)
        #expect(item.isPlaybackBufferEmpty == empty)
        #expect(item.isPlaybackLikelyToKeepUp == likely)
        #expect(item.isPlaybackBufferFull == full)
    }

    @Test("while rebuffering, keep-up needs the resume threshold")
    func rebufferingThreshold() {
        var item = item([(0, 1.5)], at: 0)
        #expect(item.isPlaybackLikelyToKeepUp)
        item.isRebuffering = true
        #expect(!item.isPlaybackLikelyToKeepUp)
    }

    @Test("the rest of the media loaded counts as likely to keep up and full, even below the thresholds")
    func loadedToEnd() {
        let item = item([(99.5, 100)], at: 99.5)
        #expect(item.isPlaybackLikelyToKeepUp)
        #expect(item.isPlaybackBufferFull)
    }

    @Test("predictive keep-up uses bitrate for a horizon and falls back to the threshold without an estimate")
    func predictive() {
        var item = item([(0, 0.5)], at: 0)
        item.policy.keepUp = .predictive(horizon: 10)
        #expect(!item.isPlaybackLikelyToKeepUp)  // no estimate: threshold rule, 0.5 < 1
        item.network = NetworkEstimate(bytesPerSecond: 200_000, mediaBytesPerSecond: 100_000)
        #expect(item.isPlaybackLikelyToKeepUp)  // 9.5 s of media at 2x real time
        item.network = NetworkEstimate(bytesPerSecond: 50_000, mediaBytesPerSecond: 100_000)
        #expect(!item.isPlaybackLikelyToKeepUp)  // half real time
    }
}
