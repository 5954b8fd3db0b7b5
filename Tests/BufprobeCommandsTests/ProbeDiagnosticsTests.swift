import BufprobeCommands
@testable import CheckEngine
import Foundation
import MediaIO
import Testing
import TestSupport

/// The diagnostics part of `probe --json`.
private struct DiagnosticsDocument: Decodable {
    struct Need: Decodable {
        var startupDelay: Double
        var minBandwidthBps: Double?
        var minBandwidthBpsRangeRequests: Double?
    }
    struct BandwidthRow: Decodable {
        var bandwidthBps: Double
        var startupDelay: Double
        var startupDelayRangeRequests: Double?
    }
    struct Basis: Decodable {
        var timeOrigin: Double?
        var latency: Double
        var indexBytes: Int64?
    }
    struct Interleave: Decodable {
        var streams: [Int]
        var maxSkewSeconds: Double
        var maxSkewBytes: Int64
    }
    struct Peak: Decodable {
        var window: Double
        var peakBps: Double?
        var peakToAverage: Double?
    }
    struct Profile: Decodable {
        var averageBps: Double?
        var peaks: [Peak]
    }
    struct Segment: Decodable {
        var uri: String
        var duration: Double
        var bytes: Int64
        var bitRate: Double?
    }
    struct Variant: Decodable {
        var uri: String
        var bandwidth: Int?
        var segments: [Segment]
        var peakSegmentBitRate: Double?
        var segmentsOverBandwidth: [Int]
        var needs: [Need]
    }
    struct HLS: Decodable {
        var variants: [Variant]
        var problem: String?
    }
    struct Stream: Decodable {
        var type: String
        var gopFrames: Interval?
        var keyframeInterval: Interval?
    }
    struct Interval: Decodable {
        var min: Double
        var avg: Double
        var max: Double
    }
    var needs: [Need]
    var bandwidthTable: [BandwidthRow]
    var needsBasis: Basis?
    var faststart: Bool?
    var interleave: Interleave?
    var bitRateProfile: Profile?
    var hls: HLS?
    var streams: [Stream]
}

private func probe(_ name: String, _ extra: [String] = []) throws -> DiagnosticsDocument {
    let result = try BufprobeProcess.run(["probe", "--json"] + extra + [BufprobeProcess.sample(name)])
    #expect(result.status == 0 || result.status == 3, "\(name): \(result.stderr)")
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(DiagnosticsDocument.self, from: Data(result.stdout.utf8))
}

/// The needs computed here, independently, from the packets MediaIO reads: each played packet ends at byte
/// `position + size` (plus `extraBytes`, at least `indexEnd`) and is needed at `D + max(pts - origin, 0)`,
/// where the origin is the latest of the played streams' first presentation times.
private func expectedNeed(_ name: String, delay: Double, extraBytes: Int64 = 0, indexEnd: Int64 = 0) throws -> Double {
    let input = try MediaInput(url: BufprobeProcess.sample(name))
    let played = [input.bestVideoStream, input.bestAudioStream].compactMap { $0 }
    var packets: [(end: Int64, time: Double)] = []
    var first: [Int: Double] = [:]
    while let packet = try input.readPacket() {
        guard played.contains(packet.stream), let time = packet.pts ?? packet.dts else { continue }
        first[packet.stream] = min(first[packet.stream] ?? time, time)
        packets.append((max(try #require(packet.position) + Int64(packet.size), indexEnd) + extraBytes, time))
    }
    let origin = try #require(played.map { first[$0] }.compactMap { $0 }.max())
    var need = 0.0
    for packet in packets {
        let slack = delay + max(packet.time - origin, 0) - 0
        need = max(need, Double(packet.end) / slack)
    }
    return (need * 8).rounded(.up)
}

@Suite("bufprobe probe: buffering diagnostics")
struct ProbeDiagnosticsTests {
    @Test("CBR WAV: the header counts, and the need is the last whole packet's byte end over its deadline",
          arguments: [1.0, 2, 5, 10])
    func cbrWave(delay: Double) throws {
        let document = try probe("cbr.wav")
        let need = try #require(document.needs.first { $0.startupDelay == delay }?.minBandwidthBps)
        // cbr.wav: a 44-byte header, then 4,096-byte packets of 0.256 s (16,000 bytes per second); the
        // 40th and last packet is the remaining 2,256 bytes at 9.984 s. Byte ends include the header.
        let lastFull = (44.0 + 4_096 * 39) / (delay + 0.256 * 38)
        let last = 160_044.0 / (delay + 0.256 * 39)
        #expect(need == (max(lastFull, last) * 8).rounded(.up))
        #expect(need == (try expectedNeed("cbr.wav", delay: delay)))
        // S / (T + D) with S = 160,044 and T = 10 s is the fluid limit: packets make the need a little
        // higher, and it stays below the 128 kbit/s rate.
        #expect(need > 160_044 * 8 / (10 + delay))
        #expect(need < 128_000)
        #expect(document.faststart == nil)
        #expect(document.interleave == nil)
        #expect(document.needsBasis?.timeOrigin == 0)
    }

    @Test("dense-start.mp4 needs more bandwidth for a 1 s start than for a 10 s one, exactly as its packets say")
    func denseStart() throws {
        let document = try probe("dense-start.mp4")
        let one = try #require(document.needs.first { $0.startupDelay == 1 }?.minBandwidthBps)
        let ten = try #require(document.needs.first { $0.startupDelay == 10 }?.minBandwidthBps)
        #expect(one == (try expectedNeed("dense-start.mp4", delay: 1)))
        #expect(ten == (try expectedNeed("dense-start.mp4", delay: 10)))
        #expect(one > ten * 2, "the dense first 5 s dominate a short start: \(one) vs \(ten)")
        #expect(document.needs.map(\.startupDelay) == [1, 2, 5, 10])
        #expect(document.needs.allSatisfy { $0.minBandwidthBpsRangeRequests == nil })
        // The startup delays of the ladder fall as the bandwidth grows, and the need for 1 s lies between
        // the first rung that starts within 1 s and the one before.
        let table = document.bandwidthTable
        #expect(zip(table, table.dropFirst()).allSatisfy { $0.startupDelay >= $1.startupDelay })
        let firstFast = try #require(table.first { $0.startupDelay <= 1 })
        #expect(firstFast.bandwidthBps >= one)
    }

    @Test("faststart is true when moov precedes mdat, false when it follows, null for other formats", arguments: [
        ("h264-aac.mp4", true as Bool?), ("h264-aac-moov-at-end.mp4", false), ("fragmented.mp4", true),
        ("dense-start.mp4", true), ("vp9-opus.mkv", nil), ("h264-aac.ts", nil), ("h264-aac.flv", nil),
        ("sine.mp3", nil), ("sine.opus", nil), ("cbr.wav", nil), ("hls/master.m3u8", nil),
    ])
    func faststart(name: String, expected: Bool?) throws {
        #expect(try probe(name).faststart == expected)
    }

    @Test("moov at the end: a sequential download needs the whole file before the start; range requests need the index first")
    func moovAtEnd() throws {
        let name = "h264-aac-moov-at-end.mp4"
        let document = try probe(name)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: BufprobeProcess.sample(name))[.size] as? NSNumber
        ).int64Value
        let index = try #require(document.needsBasis?.indexBytes)
        #expect(index > 0 && index < size / 10)
        for need in document.needs {
            #expect(need.minBandwidthBps == (Double(size) / need.startupDelay * 8).rounded(.up))
            let ranged = try #require(need.minBandwidthBpsRangeRequests)
            #expect(ranged == (try expectedNeed(name, delay: need.startupDelay, extraBytes: index)))
            // The same packets with the index in front: exactly the faststart file's need plus the index.
            #expect(ranged < need.minBandwidthBps ?? 0)
        }
        for row in document.bandwidthTable {
            #expect(abs(row.startupDelay - Double(size) * 8 / row.bandwidthBps) < 1e-6)
            #expect(row.startupDelayRangeRequests != nil)
        }
        let text = try BufprobeProcess.run(["probe", BufprobeProcess.sample(name)]).stdout
        #expect(text.contains("index (moov) at the end"), "\(text)")
        #expect(text.contains("-movflags +faststart"))
        let fast = try BufprobeProcess.run(["probe", BufprobeProcess.sample("h264-aac.mp4")]).stdout
        #expect(fast.contains("fast start  yes"), "\(fast)")
        #expect(!fast.contains("-movflags"))
    }

    @Test("--latency counts one request's time to first byte before the bytes arrive")
    func latency() throws {
        let plain = try probe("cbr.wav")
        let slow = try probe("cbr.wav", ["--latency", "0.5"])
        #expect(slow.needsBasis?.latency == 0.5)
        // Needing D with 0.5 s latency is needing D - 0.5 without it (here D = 2 against the 1.5 s row).
        let withLatency = try #require(slow.needs.first { $0.startupDelay == 2 }?.minBandwidthBps)
        let sooner = try #require(try probe("cbr.wav", ["--plot-startup-delay", "1.5"]).needs.first { $0.startupDelay == 1.5 }?.minBandwidthBps)
        #expect(withLatency == sooner)
        for (a, b) in zip(plain.bandwidthTable, slow.bandwidthTable) { #expect(abs(b.startupDelay - a.startupDelay - 0.5) < 1e-5) }
    }

    @Test("interleave, bit-rate peaks and GOP frames for an audio/video MP4")
    func profile() throws {
        let document = try probe("h264-aac.mp4")
        let interleave = try #require(document.interleave)
        #expect(interleave.streams == [0, 1])
        #expect(interleave.maxSkewSeconds >= 0 && interleave.maxSkewSeconds < 1)
        #expect(interleave.maxSkewBytes > 0 && interleave.maxSkewBytes < 100_000)
        let profile = try #require(document.bitRateProfile)
        #expect(profile.peaks.map(\.window) == [1, 5, 10])
        let average = try #require(profile.averageBps)
        let peaks = profile.peaks.compactMap(\.peakBps)
        #expect(peaks.count == 3)
        #expect(peaks[0] >= peaks[1] && peaks[1] >= peaks[2] * 0.999 && peaks[0] >= average)
        let video = try #require(document.streams.first { $0.type == "video" })
        #expect(video.gopFrames?.min == 50 && video.gopFrames?.max == 50)
        #expect(video.keyframeInterval?.avg == 2)
        #expect(document.streams.first { $0.type == "audio" }?.gopFrames == nil)
    }

    @Test("HLS: each variant's segments with their size and bit rate against BANDWIDTH")
    func hls() throws {
        let document = try probe("hls/master.m3u8")
        #expect(document.needs.isEmpty)
        let view = try #require(document.hls)
        #expect(view.problem == nil)
        #expect(view.variants.map(\.uri) == ["low/index.m3u8", "high/index.m3u8"])
        #expect(view.variants.map(\.bandwidth) == [252_824, 545_944])
        for variant in view.variants {
            #expect(variant.segments.count == 5)
            let directory = (variant.uri as NSString).deletingLastPathComponent
            for segment in variant.segments {
                let path = BufprobeProcess.sample("hls/\(directory)/\(segment.uri)")
                let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).int64Value
                #expect(segment.bytes == size)
                #expect(segment.bitRate == (Double(size) * 8 / segment.duration).rounded())
            }
            // The script declares BANDWIDTH at least the peak segment rate.
            #expect(variant.segmentsOverBandwidth.isEmpty)
            #expect((variant.peakSegmentBitRate ?? .infinity) <= Double(variant.bandwidth ?? 0))
            // Segment granularity: to start within 1 s the first segment must arrive within 1 s.
            #expect(variant.needs.first?.minBandwidthBps == (Double(variant.segments[0].bytes) * 8).rounded(.up))
        }
        #expect(try probe("h264-aac.mp4").hls == nil)
    }
}
