package import MediaIO

/// A stream whose codec parameters FFmpeg did not find while opening (an audio stream without sample rate
/// or channels, a video stream without a size): typically `-o probesize`/`-o analyzeduration` set too low.
/// A player cannot configure a decoder for it, so it is never chosen to play; it is reported, never left
/// out silently.
package enum MissingParameters {
    /// The parameters `stream` lacks (`sample rate, channels`), or `nil` when it has what it needs or is
    /// neither audio nor video.
    package static func missing(in stream: StreamInfo) -> [String]? {
        var missing: [String] = []
        switch stream.type {
        case .audio:
            if (stream.sampleRate ?? 0) <= 0 { missing.append("sample rate") }
            if (stream.channels ?? 0) <= 0 { missing.append("channels") }
        case .video:
            if (stream.width ?? 0) <= 0 || (stream.height ?? 0) <= 0 { missing.append("size") }
        default:
            return nil
        }
        return missing.isEmpty ? nil : missing
    }

    /// One warning per audio or video stream of `source` without its parameters, saying whether it is
    /// among the `playable` streams and what to do.
    package static func warnings(source: String, streams: [StreamInfo], playable: [Int]) -> [String] {
        streams.compactMap { stream in
            guard let missing = missing(in: stream) else { return nil }
            let consequence = playable.contains(stream.index)
                ? "it is played, but its times come from the few packets that carry them"
                : "a player would not play it, so it is left out of the playable ranges"
            return "\(source): FFmpeg did not find the parameters of stream \(stream.index) (\(stream.type.rawValue) \(stream.codec): "
                + "no \(missing.joined(separator: ", "))) while opening; \(consequence). Let it read more "
                + "(-o probesize=5000000 -o analyzeduration=5000000, or leave both at FFmpeg's defaults)."
        }
    }
}
