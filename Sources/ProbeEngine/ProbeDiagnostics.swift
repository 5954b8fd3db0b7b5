import Foundation
import MediaIO
package import PlaybackModel
import BufprobeOutput
import InputReading

/// The buffering diagnostics of `probe`, gathered during ProbeReader's single pass over the packets:
/// what connection a progressive download needs, fast start, interleaving, the bit-rate profile and, on
/// request, the data behind `--plot`. HLS inputs get the segmented view instead of the progressive needs.
package struct ProbeDiagnostics: Sendable {
    /// What to compute.
    package struct Options: Sendable {
        /// Startup delays of the `needs` table, seconds.
        package var startupDelays: [Double] = [1, 2, 5, 10]
        /// Bandwidths of the `bandwidth_table`, bits per second.
        package var bandwidths: [Double] = ProbeDiagnostics.bandwidthLadder
        /// Latency per request, seconds.
        package var latency = 0.0
        /// Whether to keep the per-second bytes and keyframe times for a plot.
        package var collectTimeline = false
        /// A startup delay to add to the `needs` table (the plot's bandwidth line).
        package var extraStartupDelay: Double?

        /// The defaults.
        package init() {}

        /// The table's startup delays with `extraStartupDelay`, sorted, without duplicates.
        var allStartupDelays: [Double] {
            Array(Set(startupDelays + (extraStartupDelay.map { [$0] } ?? []))).sorted()
        }
    }

    /// The bandwidth ladder of `bandwidth_table`, bits per second: 128 kbit/s to 100 Mbit/s.
    package static let bandwidthLadder: [Double] = [
        128_000, 256_000, 512_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000, 20_000_000, 50_000_000,
        100_000_000,
    ]

    let options: Options
    let source: String
    let formatName: String
    // A memory input has no playlist files to read for the segmented view.
    let inMemory: Bool
    /// The MP4 boxes, when the input is a local MP4/MOV whose headers could be read.
    let boxes: MP4BoxLayout?
    private var analyzer: ProgressiveDownloadAnalyzer?
    private var skew: InterleaveSkew?
    private var profile = BitRateProfile()
    // Playlists: only the played rendition is downloaded, so only its streams count in the profile.
    private let profiledStreams: Set<Int>?
    private var lastProfiledTime: Double?
    /// The plot data, when `options.collectTimeline`.
    package private(set) var timeline: BitRateTimeline?

    /// Prepares the diagnostics for an opened input: reads the MP4 box headers when they matter, from
    /// `bytes` when the input is held in memory (then `source` is only its name and no file is read).
    package init(
        options: Options, source: String, bytes: [UInt8]? = nil, formatName: String, playableStreams: [Int],
        video: Int?, audio: Int?
    ) {
        self.options = options
        self.source = source
        self.formatName = formatName
        inMemory = bytes != nil
        if !ContainerFormat(demuxer: formatName).isMP4Family {
            boxes = nil
        } else if let bytes {
            boxes = MP4BoxLayout.scan(bytes: bytes)
        } else {
            boxes = IndexAtEnd.boxes(path: InputKind(source).localPath, formatName: formatName)
        }
        if !ContainerFormat(demuxer: formatName).readsOtherResources {
            var layouts = [DownloadLayout.sequential]
            // The rule `simulate --download` uses: both modes are figured, sequential first.
            if let index = IndexAtEnd.fromBoxes(boxes) {
                layouts = [DownloadMode.sequential, .ranges].map { .progressive(indexAtEnd: index, mode: $0) }
            }
            analyzer = ProgressiveDownloadAnalyzer(
                playableStreams: playableStreams, layouts: layouts, startupDelays: options.allStartupDelays,
                bandwidths: options.bandwidths, latency: options.latency)
        }
        let isPlaylist = ContainerFormat(demuxer: formatName).readsOtherResources
        profiledStreams = isPlaylist ? Set(playableStreams) : nil
        // A playlist's byte positions are inside each segment, so no distance in bytes means anything.
        if !isPlaylist, let video, let audio { skew = InterleaveSkew(first: video, second: audio) }
        if options.collectTimeline { timeline = BitRateTimeline(keyframeStream: video) }
    }

    /// Adds the next packet in read order.
    package mutating func add(_ packet: MediaPacket) {
        analyzer?.add(packet)
        skew?.add(packet)
        if profiledStreams?.contains(packet.stream) ?? true {
            // A packet without timestamps (audio frames split out of one PES before the parser knows
            // the codec) is placed at the last decode time seen: the profile's average counts its bytes,
            // so its windows must too, or a peak could read below the average.
            var placed = packet
            if placed.dts == nil, placed.pts == nil { placed.dts = lastProfiledTime }
            lastProfiledTime = placed.dts ?? placed.pts ?? lastProfiledTime
            profile.add(placed)
            timeline?.add(packet)
        }
    }

    /// Completes the figures and writes them into `report`.
    package mutating func finish(into report: inout ProbeReport) {
        let round = JSONOutput.seconds
        if var analyzer {
            analyzer.finish()
            self.analyzer = analyzer
            // Layout 0 is the download in file order; layout 1, when present, the range-request player.
            let sequentialNeeds = analyzer.needs[0]
            let ranged = analyzer.needs.count > 1 ? analyzer.needs[1] : nil
            // Bandwidths are rounded up to whole bits per second so the figure is always enough.
            if sequentialNeeds.packets > 0 {
                report.needs = sequentialNeeds.startupDelays.indices.map { index in
                    ProbeReport.Need(
                        startupDelay: sequentialNeeds.startupDelays[index],
                        minBandwidthBps: sequentialNeeds.minimumBandwidth(forStartupDelayAt: index)?.rounded(.up),
                        minBandwidthBpsRangeRequests: ranged?.minimumBandwidth(forStartupDelayAt: index)?.rounded(.up))
                }
                report.bandwidthTable = sequentialNeeds.bandwidths.indices.map { index in
                    ProbeReport.BandwidthRow(
                        bandwidthBps: sequentialNeeds.bandwidths[index],
                        startupDelay: round(sequentialNeeds.startupDelay(atBandwidthAt: index)),
                        startupDelayRangeRequests: ranged.map { round($0.startupDelay(atBandwidthAt: index)) })
                }
            }
            report.needsBasis = ProbeReport.NeedsBasis(
                timeOrigin: analyzer.timeOrigin.map(round), latency: options.latency, bytes: analyzer.bytesRead,
                indexOffset: boxes?.index?.offset, indexBytes: boxes?.index?.size)
            if analyzer.originMoved {
                report.warnings.append(
                    "\(source): a played stream has data before the time the connection needs are counted from; those figures may be slightly low.")
            }
        }
        report.faststart = boxes?.isFastStart
        if let skew {
            report.interleave = ProbeReport.Interleave(
                streams: [skew.streams.first, skew.streams.second], maxSkewSeconds: round(skew.maxSkewSeconds),
                maxSkewBytes: skew.maxSkewBytes)
        }
        let average = profile.averageBitsPerSecond
        report.bitRateProfile = ProbeReport.BitRateProfile(
            averageBps: average?.rounded(),
            peaks: profile.peaks.map { peak in
                // The busiest window carries at least the average rate: never report a peak below it.
                let bitsPerSecond = peak.bitsPerSecond.map { max($0, average ?? 0) }
                return ProbeReport.Peak(
                    window: peak.window, peakBps: bitsPerSecond?.rounded(),
                    peakToAverage: bitsPerSecond.flatMap { value in
                        average.flatMap { $0 > 0 ? (value / $0 * 1000).rounded() / 1000 : nil }
                    })
            })
        if ContainerFormat(demuxer: formatName) == .hls, !inMemory {
            report.hls = HLSSegmentView.build(source: source, options: options)
        }
    }
}
