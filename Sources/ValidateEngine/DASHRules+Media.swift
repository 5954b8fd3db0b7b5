import InputReading
import MediaIO

// The rules about a representation's declared attributes against its media.
extension DASHRules {
    /// The smallest `@bandwidth` the segments read of `representation` need by the standard's definition
    /// (`LeakyBucket`, with `MPD@minBufferTime`), over its first run of segments read without a failure;
    /// `nil` without a usable `@minBufferTime` or a segment read.
    public static func neededBandwidth(_ representation: DASHRead.Representation, minBufferTime: Double?) -> Double? {
        guard let minBufferTime else { return nil }
        let run = representation.segments.prefix { $0.error == nil && $0.bytes != nil && !$0.arrivals.isEmpty }
        return LeakyBucket.minimumBandwidth(run.map(\.arrivals), minBufferTime: minBufferTime)
    }

    /// iso23009-1:5.3.5.2@bandwidth: a constant-bit-rate channel of `@bandwidth` bits per second delivering
    /// the representation from any segment start, playout `@minBufferTime` after the first bit, never runs
    /// dry. Reported with the smallest rate that would, the declared one and the percentage.
    public static func bandwidth(_ dash: DASHRead) -> [Finding] {
        var found: [Finding] = []
        for representation in dash.representations {
            let declared = Double(representation.declared.bandwidth)
            guard let minBufferTime = dash.minBufferTime, let needed = neededBandwidth(representation, minBufferTime: minBufferTime),
                needed > declared
            else { continue }
            let judged = representation.segments.prefix { $0.error == nil && $0.bytes != nil && !$0.arrivals.isEmpty }.count
            let over = judged < representation.segmentsListed ? " (over the first \(judged) of \(representation.segmentsListed) segments)" : ""
            found.append(Finding(
                rule: "iso23009-1:5.3.5.2@bandwidth",
                message: "\(representation.name): needs at least \(HLSRules.bitRate(needed)) with minBufferTime \(HLSRules.seconds(minBufferTime)), @bandwidth \(HLSRules.bitRate(declared)), \(HLSRules.percent(needed, against: declared))\(over)",
                where: [dash.uri], measured: needed.rounded(.up), declared: declared))
        }
        return found
    }

    /// iso23009-1:5.3.5.2@codecs, @width and @frameRate: `@codecs` against the streams of the first segment
    /// read (`CodecComparison`, the rule HLS's apple:9.2 and `check --all-variants` use), `@width` and
    /// `@height` against the video's picture size, and `@frameRate` against the frames over the media's
    /// duration of every segment read (within 1 %).
    public static func declaredMedia(_ dash: DASHRead) -> [Finding] {
        var found: [Finding] = []
        for representation in dash.representations {
            let segments = measured(representation)
            guard let streams = segments.first(where: { !$0.streams.isEmpty })?.streams else { continue }
            let declared = representation.declared
            let name = representation.name
            if let codecs = declared.codecs {
                let comparison = CodecComparison.compare(declared: codecs, found: streams, audioInRendition: false)
                if !comparison.mismatches.isEmpty {
                    found.append(Finding(
                        rule: "iso23009-1:5.3.5.2@codecs", message: "\(name): \(comparison.mismatches.joined(separator: "; "))", where: [dash.uri]))
                }
            }
            let video = streams.first { $0.type == .video }
            if let video, let width = video.width, let height = video.height,
                (declared.width.map { $0 != width } ?? false) || (declared.height.map { $0 != height } ?? false)
            {
                let written = "\(declared.width.map(String.init) ?? "-")x\(declared.height.map(String.init) ?? "-")"
                found.append(Finding(
                    rule: "iso23009-1:5.3.5.2@width", message: "\(name): @width x @height is \(written) but its video is \(width)x\(height)",
                    where: [dash.uri]))
            }
            if video != nil, let text = declared.frameRate, let rate = frameRate(text), let real = measuredFrameRate(segments),
                abs(real - rate) > rate * 0.01
            {
                found.append(Finding(
                    rule: "iso23009-1:5.3.5.2@frameRate",
                    message: "\(name): @frameRate is \(text) (\(figure(rate)) frames/s) but its video has \(figure(real)) frames/s",
                    where: [dash.uri], measured: HLSRules.rounded(real), declared: HLSRules.rounded(rate)))
            }
        }
        return found
    }

    /// A figure to three decimals without a trailing `.0`: "25", "29.97".
    static func figure(_ value: Double) -> String {
        let text = "\((value * 1000).rounded() / 1000)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Frames per second of `segments`: their video frames over their media's duration.
    public static func measuredFrameRate(_ segments: [SegmentRead]) -> Double? {
        let timed = segments.filter { $0.videoFrames != nil && ($0.mediaDuration ?? 0) > 0 }
        let duration = timed.reduce(0) { $0 + ($1.mediaDuration ?? 0) }
        let frames = timed.reduce(0) { $0 + ($1.videoFrames ?? 0) }
        guard duration > 0, frames > 0 else { return nil }
        return Double(frames) / duration
    }

    /// `@frameRate` as a number: `25`, `25/1`, `30000/1001`; `nil` for anything else.
    public static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let numerator = Double(parts[0]), numerator > 0, numerator.isFinite else { return nil }
        guard parts.count == 2 else { return numerator }
        guard let denominator = Double(parts[1]), denominator > 0, denominator.isFinite else { return nil }
        return numerator / denominator
    }

    /// dvb-dash:5.1.2: every video segment starts with a SAP of type 1 or 2, its first sample a keyframe (a
    /// sync sample); a representation declaring `@startWithSAP` 1 or 2 says so itself.
    public static func streamAccessPoints(_ dash: DASHRead) -> [Finding] {
        var found: [Finding] = []
        for representation in dash.representations {
            let video = representation.segments.filter { $0.startsWithKeyframe != nil }
            let without = video.filter { $0.startsWithKeyframe == false }
            guard !without.isEmpty else { continue }
            let declared = representation.declared.startWithSAP.map { " (it declares @startWithSAP=\($0))" } ?? ""
            found.append(Finding(
                rule: "dvb-dash:5.1.2",
                message: "\(representation.name): a segment starts without a keyframe (no SAP of type 1 or 2)\(declared) \(HLSRules.often(without.count, of: video.count))",
                where: places(dash, without), count: without.count, total: video.count))
        }
        return found
    }
}
