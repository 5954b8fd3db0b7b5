import PlaybackModel
import Testing

private func packet(
    _ stream: Int, _ pts: Double?, size: Int, at position: Int64?, duration: Double = 0.04, key: Bool = false
) -> MediaPacket {
    MediaPacket(stream: stream, pts: pts, dts: pts, duration: duration, size: size, position: position, isKeyframe: key)
}

@Suite("ProgressiveDownloadAnalyzer and DownloadLayout")
struct DiagnosticsAnalyzerTests {
    @Test("time 0 is the playable start: the latest of the played streams' first times")
    func originIsPlayableStart() throws {
        var analyzer = ProgressiveDownloadAnalyzer(
            playableStreams: [0, 1], layouts: [.sequential], startupDelays: [1], bandwidths: [])
        // Audio priming at -0.02 s, video from 0.1 s: playback starts at 0.1 s.
        analyzer.add(packet(1, -0.02, size: 100, at: 100))
        analyzer.add(packet(0, 0.1, size: 1_000, at: 200))
        for i in 1...60 {
            analyzer.add(packet(1, Double(i) * 0.02, size: 100, at: 1_100 + Int64(i) * 200))
            analyzer.add(packet(0, 0.1 + Double(i) * 0.04, size: 100, at: 1_200 + Int64(i) * 200))
        }
        analyzer.finish()
        #expect(analyzer.timeOrigin == 0.1)
        #expect(analyzer.originMoved == false)
        // Exact: every packet's byte end over (1 + its time - 0.1, at least 1).
        var expected = 0.0
        expected = max(expected, 200 / 1.0, 1_200 / 1.0)
        for i in 1...60 {
            expected = max(expected, Double(1_200 + i * 200) / (1 + max(Double(i) * 0.02 - 0.1, 0)))
            expected = max(expected, Double(1_300 + i * 200) / (1 + Double(i) * 0.04))
        }
        #expect(try #require(analyzer.needs[0].minimumBandwidth(forStartupDelayAt: 0)) == expected * 8)
    }

    @Test("a stream that is not played adds bytes but no deadline")
    func unplayedStreamsOnlyAddBytes() throws {
        var analyzer = ProgressiveDownloadAnalyzer(
            playableStreams: [0], layouts: [.sequential], startupDelays: [1], bandwidths: [])
        analyzer.add(packet(0, 0, size: 100, at: 0))
        analyzer.add(packet(2, 0, size: 10_000, at: 100))  // a big subtitle or data packet
        analyzer.add(packet(0, 5, size: 100, at: 10_100))
        analyzer.finish()
        #expect(try #require(analyzer.needs[0].minimumBandwidth(forStartupDelayAt: 0)) == 10_200.0 / 6 * 8)
        #expect(analyzer.bytesRead == 10_200)
    }

    @Test("a packet without a position follows the one before it")
    func missingPositions() throws {
        var analyzer = ProgressiveDownloadAnalyzer(
            playableStreams: [0], layouts: [.sequential], startupDelays: [1], bandwidths: [])
        analyzer.add(packet(0, 0, size: 100, at: 50))
        analyzer.add(packet(0, 0.04, size: 100, at: nil))
        analyzer.finish()
        #expect(analyzer.bytesRead == 250)
    }

    @Test("index at the end, read in order: nothing plays before the whole index is in")
    func indexAtEndSequential() throws {
        let size: Int64 = 100_000
        var analyzer = ProgressiveDownloadAnalyzer(
            playableStreams: [0],
            layouts: [.sequential(indexAtEndEndingAt: size), .rangeRequests(indexBytes: 8_000)],
            startupDelays: [2], bandwidths: [800_000], latency: 0.1)
        for i in 0..<230 { analyzer.add(packet(0, Double(i) * 0.04, size: 400, at: 40 + Int64(i) * 400)) }
        analyzer.finish()
        let sequential = analyzer.needs[0]
        #expect(try #require(sequential.minimumBandwidth(forStartupDelayAt: 0)) == Double(size) / (2 - 0.1) * 8)
        #expect(sequential.startupDelay(atBandwidthAt: 0) == 0.1 + Double(size) / 100_000)
        // Range requests: the index bytes come first and two more latencies before the media.
        var expected = 0.0
        for i in 0..<230 {
            expected = max(expected, Double(40 + (i + 1) * 400 + 8_000) / (2 + Double(i) * 0.04 - 0.3))
        }
        #expect(try #require(analyzer.needs[1].minimumBandwidth(forStartupDelayAt: 0)) == expected * 8)
    }

    @Test("bytes needed: the index end for a sequential read, the index on top for range requests")
    func layouts() {
        #expect(DownloadLayout.sequential.bytesNeeded(forByteEnd: 500) == 500)
        #expect(DownloadLayout.sequential(indexAtEndEndingAt: 9_000).bytesNeeded(forByteEnd: 500) == 9_000)
        #expect(DownloadLayout.rangeRequests(indexBytes: 300).bytesNeeded(forByteEnd: 500) == 800)
        #expect(DownloadLayout.rangeRequests(indexBytes: 300).requests == 3)
    }
}
