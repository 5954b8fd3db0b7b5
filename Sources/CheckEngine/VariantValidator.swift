import Foundation
package import MediaIO
import BufprobeOutput
package import InputReading

/// The comparison of one HLS variant's declared attributes with what its media really is, as pure
/// functions (no I/O): `VariantProber` fetches, this decides. Lenient where FFmpeg cannot tell (a codec
/// string it does not know, audio carried by an `#EXT-X-MEDIA` rendition, an AAC whose SBR is signalled
/// only implicitly): those are `unverified` sentences, never problems.
package enum VariantValidator {
    /// The largest relative difference between `FRAME-RATE` and the real frame rate that still matches.
    package static let frameRateTolerance = 0.01

    /// One audio or video stream found in a segment, as the comparison needs it (`CodecComparison.Stream`).
    package typealias Stream = CodecComparison.Stream

    /// One measured segment: its bytes and its `#EXTINF` duration.
    package struct SegmentSize: Sendable, Hashable {
        /// Bytes (the byte range's length, or the resource's size).
        package var bytes: Int64
        /// Seconds, from `#EXTINF`.
        package var duration: Double

        /// Creates a size.
        package init(bytes: Int64, duration: Double) {
            self.bytes = bytes
            self.duration = duration
        }
    }

    /// The variant's name in every sentence: `Variant 1 (mid/index.m3u8)`.
    package static func name(index: Int, uri: String) -> String { "Variant \(index) (\(uri))" }

    /// What the master declares about `variant`, for the report.
    package static func declared(_ variant: HLSPlaylist.Variant) -> VariantCheck.Declared {
        VariantCheck.Declared(
            bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
            resolution: variant.resolution?.description, codecs: variant.codecs, frameRate: variant.frameRate)
    }

    /// A variant that could not be measured: its playlist or first segment failed.
    package static func failed(
        index: Int, variant: HLSPlaylist.Variant, kind: VariantCheck.Kind, why: String, sizes: [SegmentSize] = []
    ) -> VariantCheck {
        var check = VariantCheck(
            index: index, uri: variant.uri, declared: declared(variant), measured: measured(streams: [], sizes: sizes),
            problems: attributeProblems(index: index, variant: variant), unverified: [])
        check.problems.insert(
            VariantCheck.Problem(kind: kind, message: "\(name(index: index, uri: variant.uri)) \(why)."), at: 0)
        return check
    }

    /// The whole comparison for a variant whose first segment opened with `streams` and whose first
    /// segments have `sizes`; its measured rates may be `tolerance` above the declared ones
    /// (`--max-peak-over-bandwidth`, `nil`: any).
    package static func validate(
        index: Int, variant: HLSPlaylist.Variant, streams: [Stream], sizes: [SegmentSize],
        tolerance: Double? = BandwidthRule.tolerance
    ) -> VariantCheck {
        let name = name(index: index, uri: variant.uri)
        let measured = measured(streams: streams, sizes: sizes)
        var problems = attributeProblems(index: index, variant: variant)
        var unverified: [String] = []
        func problem(_ kind: VariantCheck.Kind, _ text: String) {
            problems.append(VariantCheck.Problem(kind: kind, message: "\(name) \(text)."))
        }
        let video = streams.first { $0.type == .video }

        if let declared = variant.resolution {
            if let width = video?.width, let height = video?.height {
                if width != declared.width || height != declared.height {
                    problem(.resolutionMismatch, "declares RESOLUTION=\(declared) but its video is \(width)x\(height)")
                }
            } else if video == nil {
                problem(.resolutionMismatch, "declares RESOLUTION=\(declared) but its first segment has no video")
            } else {
                unverified.append("\(name): FFmpeg did not find the video's picture size, so RESOLUTION is not verifiable.")
            }
        }

        if let codecs = variant.codecs {
            let comparison = compareCodecs(declared: codecs, found: streams, audioInRendition: variant.audioGroup != nil)
            for mismatch in comparison.mismatches { problem(.codecsMismatch, mismatch) }
            unverified += comparison.unverified.map { "\(name): \($0)." }
        }

        if let declared = variant.frameRate, video != nil {
            if let real = video?.frameRate, real > 0, real.isFinite {
                if abs(real - declared) > declared * frameRateTolerance {
                    problem(
                        .frameRateMismatch,
                        "declares FRAME-RATE=\(TextFormat.number(declared)) but its video runs at \(TextFormat.number(real)) frames per second")
                }
            } else {
                unverified.append("\(name): FFmpeg did not find the video's frame rate, so FRAME-RATE is not verifiable.")
            }
        }

        if measured.segmentsMeasured == 0 {
            unverified.append("\(name): no segment size was learned (the server sent no Content-Length), so BANDWIDTH is not verifiable.")
        }
        if let peak = measured.peakBitRate, variant.bandwidth > 0,
            BandwidthRule.exceeds(measured: peak, declared: Double(variant.bandwidth), tolerance: tolerance), let tolerance
        {
            problem(
                .bandwidthExceeded,
                "peaks at \(TextFormat.bitRate(peak)) over its first \(measured.segmentsMeasured) segment(s), more than \(BandwidthRule.text(tolerance)) above its BANDWIDTH of \(TextFormat.bitRate(Double(variant.bandwidth)))")
        }
        if let average = measured.averageBitRate, let declared = variant.averageBandwidth,
            BandwidthRule.exceeds(measured: average, declared: Double(declared), tolerance: tolerance), let tolerance
        {
            problem(
                .averageBandwidthExceeded,
                "averages \(TextFormat.bitRate(average)) over its first \(measured.segmentsMeasured) segment(s), more than \(BandwidthRule.text(tolerance)) above its AVERAGE-BANDWIDTH of \(TextFormat.bitRate(Double(declared)))")
        }
        return VariantCheck(
            index: index, uri: variant.uri, declared: declared(variant), measured: measured, problems: problems,
            unverified: unverified)
    }

    /// The attributes the parser dropped, and a `BANDWIDTH` no stream can have, as problems.
    private static func attributeProblems(index: Int, variant: HLSPlaylist.Variant) -> [VariantCheck.Problem] {
        var texts = variant.invalidAttributes
        if variant.bandwidth <= 0 { texts.append("BANDWIDTH=\(variant.bandwidth)") }
        return texts.map { text in
            VariantCheck.Problem(
                kind: .invalidAttribute,
                message: "\(name(index: index, uri: variant.uri)) declares \(text.prefix(80)), which no stream can have.")
        }
    }

    /// The figures for the report.
    private static func measured(streams: [Stream], sizes: [SegmentSize]) -> VariantCheck.Measured {
        let video = streams.first { $0.type == .video }
        // A hostile playlist can pair a huge byte range with a subnormal #EXTINF: such a segment has no
        // bit rate a number can hold, and is left out rather than reported as infinity.
        let timed = sizes.filter { size in
            size.duration > 0 && size.duration.isFinite && size.bytes >= 0 && (Double(size.bytes) * 8 / size.duration).isFinite
        }
        let peak = timed.map { Double($0.bytes) * 8 / $0.duration }.max()
        let duration = timed.reduce(0) { $0 + $1.duration }
        let bytes = timed.reduce(0.0) { $0 + Double($1.bytes) }
        return VariantCheck.Measured(
            width: video?.width, height: video?.height,
            codecs: streams.map { stream in
                VariantCheck.Codec(type: stream.type.rawValue, codec: stream.codec, profile: stream.profileName, level: stream.level)
            },
            frameRate: video?.frameRate.flatMap { $0.isFinite ? ($0 * 1000).rounded() / 1000 : nil },
            peakBitRate: peak?.rounded(), averageBitRate: duration > 0 ? (bytes * 8 / duration).rounded() : nil,
            segmentsMeasured: timed.count)
    }

    /// `CODECS` against the streams found (`CodecComparison.compare`): `mismatches` (clauses completing
    /// "Variant N (uri) ...") and `unverified` clauses.
    package static func compareCodecs(
        declared attribute: String, found: [Stream], audioInRendition: Bool
    ) -> (mismatches: [String], unverified: [String]) {
        CodecComparison.compare(declared: attribute, found: found, audioInRendition: audioInRendition)
    }
}
