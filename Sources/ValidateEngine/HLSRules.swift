import BufprobeOutput
import PlaybackModel

/// The pure rule functions of the catalogue (`ValidationCatalogue`) over what was read (`StreamRead`): no
/// I/O, no clock; each returns its findings. `findings(_:)` runs every rule.
public enum HLSRules {
    /// Every rule's findings for `read`, in catalogue order.
    public static func findings(_ read: StreamRead) -> [Finding] {
        var found: [Finding] = []
        found += unreadable(read)
        for playlist in [read.multivariant].compactMap({ $0 }) + read.playlists { found += encoding(playlist) }
        if let multivariant = read.multivariant { found += groupReferences(multivariant) }
        for playlist in read.playlists where playlist.playlist != nil { found += initializationSection(playlist) }
        found += independentSegments(read)
        let media = read.playlists.filter { $0.playlist != nil }
        for playlist in media { found += targetDuration(playlist) }
        if let multivariant = read.multivariant { found += version(multivariant) }
        for playlist in media { found += version(playlist) }
        found += bitRates(read)
        for playlist in media where playlist.role != .iFrame {
            found += keyframeStart(playlist)
            found += segmentDuration(playlist)
            found += durationSum(playlist)
        }
        for playlist in media { found += playlistType(playlist) }
        found += variantAttributes(read)
        found += bitRateLadder(read)
        return ValidationCatalogue.ordered(found)
    }

    /// bufprobe:read: a media playlist that could not be read or parsed, and the segments of each playlist
    /// that could not be read or opened as media (one finding per playlist, the first reason as its message).
    public static func unreadable(_ read: StreamRead) -> [Finding] {
        var found: [Finding] = []
        for playlist in read.playlists {
            if let error = playlist.error {
                found.append(Finding(rule: "bufprobe:read", message: "the media playlist \(error)", where: [playlist.uri]))
                continue
            }
            let failed = playlist.segments.filter { $0.error != nil }
            guard let first = failed.first, let error = first.error else { continue }
            found.append(Finding(
                rule: "bufprobe:read",
                message: "a segment \(error) (\(first.uri)); \(failed.count) of \(playlist.segments.count) segments read failed",
                where: places(playlist, failed), count: failed.count, total: playlist.segments.count))
        }
        return found
    }

    /// The playlist, then the first `Finding.listedPlaces` of `segments`' URIs.
    static func places(_ playlist: PlaylistRead, _ segments: [SegmentRead] = []) -> [String] {
        [playlist.uri] + segments.prefix(Finding.listedPlaces).map(\.uri)
    }

    /// "in 6 of 7 segments".
    static func often(_ count: Int, of total: Int, _ noun: String = "segment") -> String {
        "in \(count) of \(total) \(noun)\(total == 1 ? "" : "s")"
    }

    /// A signed percentage of `measured` against `declared`: "+67 %", "-12 %".
    static func percent(_ measured: Double, against declared: Double) -> String {
        guard declared > 0 else { return "" }
        // wholeNumber: a degenerate figure (a segment of no duration: an infinite rate) is written, not trapped on.
        let value = ((measured - declared) / declared * 100).rounded()
        return "\(value >= 0 ? "+" : "")\(wholeNumber(value)) %"
    }

    /// Seconds to the microsecond, as every JSON time is written.
    static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    /// Seconds as reports print them: "6.006 s".
    static func seconds(_ value: Double) -> String { TextFormat.seconds(value) }

    /// Bits per second as reports print them: "1.84 Mbit/s".
    static func bitRate(_ value: Double) -> String { TextFormat.bitRate(value) }
}
