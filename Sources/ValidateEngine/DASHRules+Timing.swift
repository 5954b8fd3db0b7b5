import MediaIO

// The rules about time: the timeline against the media, alignment across representations, and audio and
// video covering the same time.
extension DASHRules {
    /// iso23009-1:5.3.9.6: every segment's media starts and ends where the MPD's timeline (`S@t`, `S@d`, or
    /// `@duration`, over `@timescale`) puts it, within one frame (its longest packet) plus 1 ms, and the
    /// declared timeline itself has no gap or overlap between consecutive segments (1 ms).
    public static func timeline(_ dash: DASHRead) -> [Finding] {
        var found: [Finding] = []
        for representation in dash.representations {
            guard case .listed(let declared) = representation.declared.addressing else { continue }
            var gaps: [String] = []
            for index in declared.indices.dropFirst() {
                guard let previous = declared[index - 1].mediaTime, let start = declared[index].mediaTime else { continue }
                let gap = start - (previous + declared[index - 1].duration)
                if abs(gap) > 0.001 {
                    gaps.append("\(gap > 0 ? "a gap" : "an overlap") of \(HLSRules.seconds(abs(gap))) between segments \(index) and \(index + 1)")
                }
            }
            if let first = gaps.first {
                found.append(Finding(
                    rule: "iso23009-1:5.3.9.6", message: "\(representation.name): the MPD's timeline has \(first)\(gaps.count > 1 ? " and \(gaps.count - 1) more" : "")",
                    where: [dash.uri], count: gaps.count, total: declared.count - 1))
            }
            var off: [(SegmentRead, String, Double, Double)] = []
            var judged = 0
            for segment in measured(representation) {
                guard declared.indices.contains(segment.index), let declaredStart = declared[segment.index].mediaTime,
                    let start = segment.earliestPresentation, let length = segment.mediaDuration
                else { continue }
                judged += 1
                let tolerance = (segment.frameDuration ?? 0) + 0.001
                let declaredEnd = declaredStart + declared[segment.index].duration
                if abs(start - declaredStart) > tolerance {
                    off.append((segment, "starts at \(HLSRules.seconds(start))", start, declaredStart))
                } else if abs(start + length - declaredEnd) > tolerance {
                    off.append((segment, "ends at \(HLSRules.seconds(start + length))", start + length, declaredEnd))
                }
            }
            if let (segment, what, measured, expected) = off.first {
                found.append(Finding(
                    rule: "iso23009-1:5.3.9.6",
                    message: "\(representation.name): segment \(segment.index + 1)'s media \(what) where the MPD puts \(HLSRules.seconds(expected)) (\(HLSRules.seconds(abs(measured - expected))) apart); the media is off its timeline \(HLSRules.often(off.count, of: judged))",
                    where: places(dash, off.map(\.0)), count: off.count, total: judged, measured: HLSRules.rounded(measured),
                    declared: HLSRules.rounded(expected)))
            }
        }
        return found
    }

    /// iso23009-1:5.3.3.2@segmentAlignment: in an adaptation set declaring `@segmentAlignment="true"`, the
    /// representations list as many segments and each segment's media starts at the same time in every one
    /// (within the longest frame among them plus 1 ms), so a player switches at any boundary.
    public static func alignment(_ dash: DASHRead) -> [Finding] {
        guard let sets = dash.manifest?.adaptationSets else { return [] }
        var found: [Finding] = []
        for (index, set) in sets.enumerated() where set.segmentAlignment {
            let members = dash.representations.filter { $0.set == index }
            guard members.count > 1 else { continue }
            let name = "adaptation set \(index + 1)\(set.id.map { " (id \($0))" } ?? "")"
            let counts = Set(members.map(\.segmentsListed))
            if counts.count > 1 {
                found.append(Finding(
                    rule: "iso23009-1:5.3.3.2@segmentAlignment",
                    message: "\(name) declares segmentAlignment but its representations list \(counts.sorted().map(String.init).joined(separator: ", ")) segments",
                    where: [dash.uri]))
            }
            let positions = members.map(\.segmentsListed).min() ?? 0
            var apart: [(Int, Double, Double)] = []
            var judged = 0
            for position in 0..<positions {
                let starts = members.compactMap { member -> (Double, Double)? in
                    guard let segment = member.segments.first(where: { $0.index == position && $0.error == nil }),
                        let start = segment.earliestPresentation
                    else { return nil }
                    return (start - member.declared.presentationTimeOffset, segment.frameDuration ?? 0)
                }
                guard starts.count == members.count, let low = starts.map(\.0).min(), let high = starts.map(\.0).max() else { continue }
                judged += 1
                if high - low > (starts.map(\.1).max() ?? 0) + 0.001 { apart.append((position, low, high)) }
            }
            if let (position, low, high) = apart.first {
                found.append(Finding(
                    rule: "iso23009-1:5.3.3.2@segmentAlignment",
                    message: "\(name) declares segmentAlignment but segment \(position + 1) starts between \(HLSRules.seconds(low)) and \(HLSRules.seconds(high)) across its representations; not aligned \(HLSRules.often(apart.count, of: judged, "segment position"))",
                    where: [dash.uri], count: apart.count, total: judged, measured: HLSRules.rounded(high - low)))
            }
        }
        return found
    }

    /// The stated tolerance of bufprobe:dash-coverage, seconds.
    public static let coverageTolerance = 0.1

    /// bufprobe:dash-coverage: the audio and the video adaptation sets cover the same time of the period: the
    /// first representation read whole of each starts and ends within `coverageTolerance` of the other's.
    public static func coverage(_ dash: DASHRead) -> [Finding] {
        guard let sets = dash.manifest?.adaptationSets else { return [] }
        func span(_ kind: DASHManifest.ContentKind) -> (DASHRead.Representation, Double, Double)? {
            for representation in dash.representations where sets.indices.contains(representation.set) && sets[representation.set].kind == kind {
                guard representation.isComplete, let first = representation.segments.first, let last = representation.segments.last,
                    let start = first.earliestPresentation, let lastStart = last.earliestPresentation, let length = last.mediaDuration
                else { continue }
                let offset = representation.declared.presentationTimeOffset
                return (representation, start - offset, lastStart + length - offset)
            }
            return nil
        }
        guard let (video, videoStart, videoEnd) = span(.video), let (audio, audioStart, audioEnd) = span(.audio) else { return [] }
        let apart = max(abs(videoStart - audioStart), abs(videoEnd - audioEnd))
        guard apart > coverageTolerance else { return [] }
        let range = { (start: Double, end: Double) in "\(HLSRules.seconds(start))-\(HLSRules.seconds(end))" }
        return [Finding(
            rule: "bufprobe:dash-coverage",
            message: "video (\(video.name)) covers \(range(videoStart, videoEnd)), audio (\(audio.name)) \(range(audioStart, audioEnd)): \(HLSRules.seconds(apart)) apart, more than \(HLSRules.seconds(coverageTolerance))",
            where: [dash.uri], measured: HLSRules.rounded(apart), declared: coverageTolerance)]
    }
}
