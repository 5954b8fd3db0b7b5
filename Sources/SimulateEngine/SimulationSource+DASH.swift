import Foundation
import MediaIO
import PlaybackModel
import BufprobeOutput

extension SimulationSource {
    /// A local DASH manifest: its video representations (audio ones when it has no video) as variants,
    /// numbered in manifest order; with `adaptive` all of them (`ladder`), else the `variant`-th (0 by
    /// default) as one segmented stream.
    static func dash(_ path: String, variant: Int?, adaptive: Bool) throws(Failure) -> SimulationSource {
        let manifest: DASHManifest
        do {
            manifest = try DASHManifest.load(path: path)
        } catch {
            throw Failure(sentence: error.description, isUsage: false)
        }
        let all = manifest.adaptationSets.flatMap(\.representations)
        let video = all.filter { $0.kind == .video }
        let audio = all.filter { $0.kind == .audio }
        let listed = !video.isEmpty ? video : !audio.isEmpty ? audio : all
        guard !listed.isEmpty else { throw Failure(sentence: "\(path) lists no representation.", isUsage: false) }
        if !adaptive, let variant, !listed.indices.contains(variant) {
            throw Failure(
                sentence: "\(path) has \(listed.count) \(video.isEmpty ? "" : "video ")representations (0 to \(listed.count - 1)); --variant \(variant) is not one of them.",
                isUsage: true)
        }
        let chosen = adaptive ? Array(listed.indices) : [variant ?? 0]
        var variants: [SimulationLadder.Variant] = []
        var durations: [Double] = []
        var single: [(duration: Double, bytes: Int64)] = []
        for label in chosen {
            let representation = listed[label]
            let measured: (initialization: Int64, segments: [(duration: Double, bytes: Int64)])
            do {
                measured = try manifest.segments(of: representation, manifestPath: path)
            } catch {
                throw Failure(sentence: error.description, isUsage: false)
            }
            guard !measured.segments.isEmpty else {
                throw Failure(sentence: "\(path) lists no segments for Representation \(representation.id).", isUsage: false)
            }
            try checkSizes(measured.segments.map(\.bytes) + [measured.initialization], of: path)
            if durations.isEmpty { durations = measured.segments.map(\.duration) }
            single = measured.segments
            variants.append(
                SimulationLadder.Variant(
                    label: label, bitRate: Double(representation.bandwidth), segmentBytes: measured.segments.map(\.bytes),
                    initializationBytes: measured.initialization))
        }
        let separateAudio = try dashAudio(manifest, path: path)
        var source: SimulationSource
        if adaptive {
            source = try adaptiveSource(path, kind: "dash", variants: variants, durations: durations)
        } else {
            let representation = listed[variant ?? 0]
            source = SimulationSource(
                description: "\(path) representation \(representation.id) (\(BitRate(bitsPerSecond: Double(representation.bandwidth)).description))",
                kind: "dash", media: .segmented(single, initializationBytes: variants.first?.initializationBytes ?? 0))
        }
        source.manifestHints = manifestHints(manifest, audio: video.isEmpty ? nil : audio.first, path: path)
        if let separateAudio {
            source.audio = separateAudio.0
            source.audioDescription = separateAudio.1
        }
        return source
    }
}
