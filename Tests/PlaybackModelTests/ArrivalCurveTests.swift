import Synchronization
import Testing

@testable import PlaybackModel

/// Every download a model is told of, kept where the test can read it.
private final class DownloadLog: Sendable {
    let downloads = Mutex<[PlayerAbrDownload]>([])
}

/// A model that always asks for the lowest variant and keeps each download it is told of; `needsArrival`
/// as given.
private struct RecordingModel: PlayerAbrModel {
    let log: DownloadLog
    var needsArrival: Bool

    var name: String { "recording" }
    var parameters: [String: Double] { [:] }

    mutating func choose(_ context: PlayerAbrContext) -> AbrDecision { AbrDecision(variant: 0, reason: "lowest") }
    mutating func recordDownload(_ download: PlayerAbrDownload) { log.downloads.withLock { $0.append(download) } }
    func abandonment(_ progress: PlayerAbrProgress) -> AbrDecision? { nil }
    func overriding(safetyFactor: Double?) -> RecordingModel { self }
}

/// A download's arrival curve (`PlayerAbrDownload.arrival`): its corners where the link's rate changes
/// within it, from the trace and from another track taking a share, for a model that reads it (Shaka's
/// progress samples).
@Suite struct ArrivalCurveTests {
    /// Two segments of 250 kB at one variant on `network`, with `audio` beside them when given; the
    /// downloads the model was told of.
    static func downloads(network: NetworkModel, needsArrival: Bool = true, audio: SimulationMedia? = nil) throws -> [PlayerAbrDownload] {
        let variant = SimulationLadder.Variant(label: 0, bitRate: 1_000_000, segmentBytes: [250_000, 250_000])
        let ladder = try SimulationLadder(variants: [variant], durations: [2, 2])
        let log = DownloadLog()
        var engine = SimulationEngine(
            ladder: ladder, rule: .player(PlayerAbr(RecordingModel(log: log, needsArrival: needsArrival))),
            network: network, policy: .default, audio: audio)
        engine.run()
        return log.downloads.withLock { $0 }
    }

    static func close(_ points: [PlayerAbrDownload.ArrivalPoint], _ expected: [(Double, Double)]) -> Bool {
        points.count == expected.count
            && zip(points, expected).allSatisfy { abs($0.time - $1.0) < 1e-9 && abs($0.bytes - $1.1) < 1e-6 }
    }

    @Test("a link slowing from 2 to 0.5 Mbit/s at 0.5 s: the first segment's curve bends there, the second's is straight")
    func traceStep() throws {
        var network = NetworkModel(bitsPerSecond: 2_000_000)
        network.setBandwidth(500_000, at: 0.5)
        let downloads = try Self.downloads(network: network)
        #expect(downloads.count == 2)
        // 125 kB by 0.5 s at 250 kB/s, the other 125 kB at 62.5 kB/s: 2 s more.
        #expect(Self.close(downloads[0].arrival, [(0, 0), (0.5, 125_000), (2.5, 250_000)]), "\(downloads[0].arrival)")
        #expect(abs(downloads[0].time - 2.5) < 1e-9 && abs(downloads[0].transfer - 2.5) < 1e-9)
        // The second from 2.5 s, all at 0.5 Mbit/s: 4 s.
        #expect(Self.close(downloads[1].arrival, [(2.5, 0), (6.5, 250_000)]), "\(downloads[1].arrival)")
    }

    @Test("an audio track sharing the link halves the video's rate while its requests flow: a corner where it ends")
    func sharedLink() throws {
        // 4 Mbit/s; audio 50 kB a segment: while both flow each has 2 Mbit/s (250 kB/s), an audio segment
        // takes 0.2 s, and the second follows the first at once (no corner at 0.2 s: the rate is the same).
        let audio = SimulationMedia.segmented([(duration: 2, bytes: 50_000), (duration: 2, bytes: 50_000)])
        let downloads = try Self.downloads(network: NetworkModel(bitsPerSecond: 4_000_000), audio: audio)
        // The video: 100 kB by 0.4 s at half the link, then 500 kB/s alone: the other 150 kB by 0.7 s.
        #expect(Self.close(downloads[0].arrival, [(0, 0), (0.4, 100_000), (0.7, 250_000)]), "\(downloads[0].arrival)")
        // The second video segment, from 0.7 s, alone.
        #expect(Self.close(downloads[1].arrival, [(0.7, 0), (1.2, 250_000)]), "\(downloads[1].arrival)")
    }

    @Test("a model that does not read the curve gets none, and the engine keeps no flows for it")
    func offByDefault() throws {
        var network = NetworkModel(bitsPerSecond: 2_000_000)
        network.setBandwidth(500_000, at: 0.5)
        let downloads = try Self.downloads(network: network, needsArrival: false)
        #expect(downloads.count == 2 && downloads.allSatisfy(\.arrival.isEmpty))
        #expect(ShakaAbr().needsArrival && !DashjsAbr().needsArrival && !HlsjsAbr().needsArrival)
    }

    @Test("a corner per trace step: a 1 s step trace of 1, 2, 1, 2 Mbit/s")
    func corners() {
        var network = NetworkModel(bitsPerSecond: 1_000_000)
        for (time, rate) in [(1.0, 2_000_000.0), (2, 1_000_000), (3, 2_000_000)] { network.setBandwidth(rate, at: time) }
        let flow = NetworkModel.Transfer(network: network, start: 0.5)
        let corners = flow.corners(from: 0.5, to: 3.5)
        let expected: [(Double, Double)] = [(0.5, 0), (1, 500_000), (2, 2_500_000), (3, 3_500_000), (3.5, 4_500_000)]
        #expect(corners.count == expected.count)
        for (corner, want) in zip(corners, expected) { #expect(abs(corner.time - want.0) < 1e-9 && abs(corner.bits - want.1) < 1e-6) }
        // At most `limit` corners: the last is `to`'s.
        let capped = flow.corners(from: 0.5, to: 3.5, limit: 3)
        #expect(capped.count == 3 && abs(capped[2].time - 3.5) < 1e-9 && abs(capped[2].bits - 4_500_000) < 1e-6)
    }
}
