import InputReading
import MediaIO
import PlaybackModel

// The rules about a variant: its declared attributes against its media.
extension HLSRules {
    /// What a variant measures: its own playlist's bit rates plus, with an `AUDIO` group, the largest of the
    /// group's renditions (the largest sum over a playable combination, RFC 8216 §4.3.4.2).
    public static func measured(_ variant: StreamRead.Variant, in read: StreamRead) -> SegmentBitRates? {
        guard read.playlists.indices.contains(variant.playlist), let own = SegmentBitRates.measure(read.playlists[variant.playlist]) else {
            return nil
        }
        let audio = variant.audio.filter(read.playlists.indices.contains).compactMap { SegmentBitRates.measure(read.playlists[$0]) }
        return SegmentBitRates(
            peak: own.peak + (audio.map(\.peak).max() ?? 0), average: own.average + (audio.map(\.average).max() ?? 0),
            segments: own.segments)
    }

    /// apple:1.26, 1.27 and 1.28 for every variant of a VOD stream (its playlist ends with `EXT-X-ENDLIST`).
    public static func bitRates(_ read: StreamRead) -> [Finding] {
        var found: [Finding] = []
        for variant in read.variants {
            guard read.playlists.indices.contains(variant.playlist) else { continue }
            let playlist = read.playlists[variant.playlist]
            guard playlist.playlist?.hasEndList == true, let figures = measured(variant, in: read) else { continue }
            let name = "variant \(variant.number)"
            let over = playlist.segments.count < playlist.segmentsListed ? " (over the \(figures.segments) segments read)" : ""
            let places = [read.multivariant?.uri, playlist.uri].compactMap { $0 }
            if let declared = variant.declared.averageBandwidth.map(Double.init), BandwidthRule.differs(measured: figures.average, declared: declared) {
                found.append(Finding(
                    rule: "apple:1.26",
                    message: "\(name): measured average \(bitRate(figures.average)), AVERAGE-BANDWIDTH \(bitRate(declared)), \(percent(figures.average, against: declared))\(over)",
                    where: places, measured: figures.average.rounded(), declared: declared))
            }
            let declared = Double(variant.declared.bandwidth)
            if declared > 0, BandwidthRule.differs(measured: figures.peak, declared: declared) {
                found.append(Finding(
                    rule: "apple:1.27",
                    message: "\(name): measured peak \(bitRate(figures.peak)), BANDWIDTH \(bitRate(declared)), \(percent(figures.peak, against: declared))\(over)",
                    where: places, measured: figures.peak.rounded(), declared: declared))
            }
            if figures.average > 0, figures.peak > 2 * figures.average {
                found.append(Finding(
                    rule: "apple:1.28",
                    message: "\(name): measured peak \(bitRate(figures.peak)) is \(wholeNumber((figures.peak / figures.average * 100).rounded())) % of its measured average \(bitRate(figures.average)), more than 200 %\(over)",
                    where: places, measured: figures.peak.rounded(), declared: (2 * figures.average).rounded()))
            }
        }
        return found
    }

    /// apple:9.1 to 9.4: the attributes every variant declares, and `CODECS` and `RESOLUTION` against the
    /// streams of its first segment read (`CodecComparison`, the rule `check --all-variants` uses).
    public static func variantAttributes(_ read: StreamRead) -> [Finding] {
        guard let multivariant = read.multivariant else { return [] }
        var found: [Finding] = []
        let total = read.variants.count
        for attribute in ["AVERAGE-BANDWIDTH", "CODECS"] {
            let missing = read.variants.filter { attribute == "CODECS" ? $0.declared.codecs == nil : $0.declared.averageBandwidth == nil }
            if !missing.isEmpty {
                found.append(Finding(
                    rule: "apple:9.1", message: "\(attribute) is missing \(often(missing.count, of: total, "variant"))",
                    where: [multivariant.uri] + missing.prefix(Finding.listedPlaces).map(\.declared.uri), count: missing.count, total: total))
            }
        }
        var withVideo = 0
        var unsized: [StreamRead.Variant] = []
        for variant in read.variants {
            guard let streams = firstStreams(variant, in: read) else { continue }
            let place = [multivariant.uri, read.playlists[variant.playlist].uri]
            let video = streams.first { $0.type == .video }
            if video != nil {
                withVideo += 1
                if variant.declared.resolution == nil { unsized.append(variant) }
            }
            if let codecs = variant.declared.codecs {
                let comparison = CodecComparison.compare(declared: codecs, found: streams, audioInRendition: variant.declared.audioGroup != nil)
                if !comparison.mismatches.isEmpty {
                    found.append(Finding(
                        rule: "apple:9.2", message: "variant \(variant.number) \(comparison.mismatches.joined(separator: "; "))", where: place))
                }
            }
            if let declared = variant.declared.resolution, let width = video?.width, let height = video?.height,
                width != declared.width || height != declared.height
            {
                found.append(Finding(
                    rule: "apple:9.4", message: "variant \(variant.number) declares RESOLUTION=\(declared) but its video is \(width)x\(height)",
                    where: place))
            }
        }
        if !unsized.isEmpty {
            found.append(Finding(
                rule: "apple:9.3", message: "RESOLUTION is missing \(often(unsized.count, of: withVideo, "variant with video"))",
                where: [multivariant.uri] + unsized.prefix(Finding.listedPlaces).map(\.declared.uri), count: unsized.count, total: withVideo))
        }
        return found
    }

    /// The streams of the first segment of `variant`'s playlist that opened as media.
    static func firstStreams(_ variant: StreamRead.Variant, in read: StreamRead) -> [CodecComparison.Stream]? {
        guard read.playlists.indices.contains(variant.playlist) else { return nil }
        return read.playlists[variant.playlist].segments.first { !$0.streams.isEmpty }?.streams
    }
}
