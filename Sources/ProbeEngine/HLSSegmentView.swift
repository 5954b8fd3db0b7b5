import Foundation
import MediaIO
import PlaybackModel
import InputReading

/// The segmented view of an HLS input: for each media playlist (each variant of a master playlist, or the
/// input itself), every segment's duration, size and bit rate against the declared `BANDWIDTH`, and the
/// connection the variant needs (one request per segment). Reads the playlists' text and the segments'
/// sizes on disk, never their contents; remote playlists are not fetched a second time.
enum HLSSegmentView {
    /// The view for `source`, or a view with only `problem` set when the playlists cannot be read locally.
    static func build(source: String, options: ProbeDiagnostics.Options) -> ProbeReport.HLSView {
        guard let source = InputKind(source).localPath else {
            let why = InputKind(source).isNetwork ? "is remote" : "is not a local file"
            return ProbeReport.HLSView(
                variants: [], problem: "\(source) \(why): the segmented view reads local playlists only.")
        }
        do {
            let playlist = try HLSPlaylist.load(path: source)
            switch playlist.kind {
            case .media:
                return ProbeReport.HLSView(
                    variants: [try variant(playlist, path: source, uri: source, declared: nil, options: options)],
                    problem: nil)
            case .master:
                var variants: [ProbeReport.HLSVariant] = []
                for declared in playlist.variants {
                    let path = HLSPlaylist.resolve(declared.uri, against: source)
                    let media = try HLSPlaylist.load(path: path)
                    variants.append(try variant(media, path: path, uri: declared.uri, declared: declared, options: options))
                }
                return ProbeReport.HLSView(variants: variants, problem: nil)
            }
        } catch {
            return ProbeReport.HLSView(variants: [], problem: error.description)
        }
    }

    private static func variant(
        _ playlist: HLSPlaylist, path: String, uri: String, declared: HLSPlaylist.Variant?,
        options: ProbeDiagnostics.Options
    ) throws(HLSPlaylistError) -> ProbeReport.HLSVariant {
        let sizes = try playlist.segmentSizes(playlistPath: path)
        let segments = zip(playlist.segments, sizes).map { segment, bytes in
            ProbeReport.HLSSegment(
                uri: segment.uri, duration: segment.duration, bytes: bytes,
                bitRate: segment.duration > 0 ? (Double(bytes) * 8 / segment.duration).rounded() : nil)
        }
        let total = playlist.totalDuration
        let bytes = sizes.reduce(0, +)
        let needs = ProgressiveDownloadNeeds.segmented(
            zip(playlist.segments, sizes).map { ($0.duration, $1) }, startupDelays: options.allStartupDelays,
            bandwidths: options.bandwidths, latency: options.latency)
        let over = declared.map { variant in
            segments.indices.filter { (segments[$0].bitRate ?? 0) > Double(variant.bandwidth) }
        } ?? []
        return ProbeReport.HLSVariant(
            uri: uri, bandwidth: declared?.bandwidth, averageBandwidth: declared?.averageBandwidth,
            segments: segments, averageBitRate: total > 0 ? (Double(bytes) * 8 / total).rounded() : nil,
            peakSegmentBitRate: segments.compactMap(\.bitRate).max(), segmentsOverBandwidth: over,
            needs: needs.bandwidthNeeds.map { row in
                ProbeReport.Need(
                    startupDelay: row.startupDelay, minBandwidthBps: row.bitsPerSecond?.rounded(.up),
                    minBandwidthBpsRangeRequests: nil)
            })
    }
}
