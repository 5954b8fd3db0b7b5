import MediaIO

/// The pure rule functions of the catalogue's DASH rules (`ValidationCatalogue`) over what was read of an
/// MPD (`StreamRead.dash`): no I/O, no clock; each returns its findings. `findings(_:)` runs every rule.
/// Figures and words are written as the HLS rules write them (`HLSRules`' helpers).
public enum DASHRules {
    /// Every rule's findings for `read` (an HLS read has none), in catalogue order.
    public static func findings(_ read: StreamRead) -> [Finding] {
        guard let dash = read.dash else { return [] }
        var found: [Finding] = []
        found += unreadable(dash)
        found += mpdAttributes(dash)
        found += liveTiming(dash)
        found += representationAttributes(dash)
        found += bandwidth(dash)
        found += declaredMedia(dash)
        found += streamAccessPoints(dash)
        found += timeline(dash)
        found += alignment(dash)
        found += coverage(dash)
        return ValidationCatalogue.ordered(found)
    }

    /// bufprobe:read: an MPD whose segments could not be worked out, and the segments of each representation
    /// that could not be read or opened as media (one finding per representation, the first reason).
    public static func unreadable(_ dash: DASHRead) -> [Finding] {
        var found: [Finding] = []
        if let error = dash.manifestError {
            found.append(Finding(rule: "bufprobe:read", message: "the MPD's segments cannot be worked out: it \(error)", where: [dash.uri]))
        }
        for representation in dash.representations {
            let failed = representation.segments.filter { $0.error != nil }
            guard let first = failed.first, let error = first.error else { continue }
            found.append(Finding(
                rule: "bufprobe:read",
                message: "\(representation.name): a segment \(error) (\(first.uri)); \(failed.count) of \(representation.segments.count) segments read failed",
                where: places(dash, failed), count: failed.count, total: representation.segments.count))
        }
        return found
    }

    /// The MPD, then the first `Finding.listedPlaces` of `segments`' URIs.
    static func places(_ dash: DASHRead, _ segments: [SegmentRead] = []) -> [String] {
        [dash.uri] + segments.prefix(Finding.listedPlaces).map(\.uri)
    }

    /// The segments of `representation` read as media (a size and a time), in order.
    static func measured(_ representation: DASHRead.Representation) -> [SegmentRead] {
        representation.segments.filter { $0.error == nil && $0.bytes != nil }
    }
}
