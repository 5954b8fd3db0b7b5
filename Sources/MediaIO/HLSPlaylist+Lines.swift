import Foundation

// The parser's helpers: numbers, attributes and byte ranges from one line, and the parts kept.
extension HLSPlaylist {
    /// Drops the parts of the oldest segments until at most `maxParts` are left.
    mutating func keepNewestParts() {
        var left = Self.maxParts - trailingParts.count
        if left < 0 {
            trailingParts.removeFirst(-left)
            left = 0
        }
        for index in segments.indices.reversed() {
            if segments[index].parts.count > left {
                segments[index].parts.removeAll()
                left = 0
            } else {
                left -= segments[index].parts.count
            }
        }
    }

    /// `uri` resolved against the location of the playlist it was read from (a path or URL), by
    /// `URLReference`'s rules.
    public static func resolve(_ uri: String, against playlistLocation: String) -> String {
        URLReference.resolve(uri, against: playlistLocation)
    }

    /// A non-negative number of seconds no longer than `ResourceLimits.longestDuration`, else `nil`.
    static func seconds(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0, value <= ResourceLimits.longestDuration else { return nil }
        return value
    }

    /// The reason for a duration beyond `ResourceLimits.longestDuration`.
    static func tooLong(_ tag: String) -> String {
        "has an \(tag) longer than 7 days (604,800 s), the longest duration bufprobe accepts, as on the command line"
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// A variant from its `#EXT-X-STREAM-INF` attributes: every value a picture or rate cannot have is
    /// dropped and named in `invalidAttributes` (a hostile master must not reach arithmetic with it).
    static func variant(bandwidth: Int, attributes: [String: String]) -> Variant {
        var variant = Variant(uri: "", bandwidth: bandwidth)
        variant.codecs = attributes["CODECS"]
        variant.audioGroup = attributes["AUDIO"]
        if let text = attributes["AVERAGE-BANDWIDTH"] {
            if let value = Int(text), value > 0 {
                variant.averageBandwidth = value
            } else {
                variant.invalidAttributes.append("AVERAGE-BANDWIDTH=\(text)")
            }
        }
        if let text = attributes["FRAME-RATE"] {
            if let value = Double(text), value.isFinite, value > 0, value <= maxFrameRate {
                variant.frameRate = value
            } else {
                variant.invalidAttributes.append("FRAME-RATE=\(text)")
            }
        }
        if let text = attributes["RESOLUTION"] {
            variant.resolution = parseResolution(text)
            if variant.resolution == nil { variant.invalidAttributes.append("RESOLUTION=\(text)") }
        }
        return variant
    }

    /// `WIDTHxHEIGHT` with both sides in 1...`maxResolutionSide` (RFC 8216 §4.3.4.2: a decimal-resolution).
    static func parseResolution(_ text: String) -> Resolution? {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
            (1...maxResolutionSide).contains(width), (1...maxResolutionSide).contains(height)
        else { return nil }
        return Resolution(width: width, height: height)
    }

    /// `#TAG:value` into `#TAG` and `value` (empty when there is no colon).
    static func splitTag(_ line: Substring) -> (Substring, Substring) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (line[..<colon], line[line.index(after: colon)...])
    }

    /// `length[@offset]`.
    static func parseByteRange(_ text: Substring) -> (length: Int64, offset: Int64?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let length = Int64(parts[0]), length >= 0 else { return nil }
        if parts.count == 2 {
            guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
            return (length, offset)
        }
        return (length, nil)
    }

    /// An attribute list (`KEY=value,KEY="quoted, with commas"`) as a dictionary, quotes removed.
    static func parseAttributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else { break }
            let key = String(text[index..<equals]).trimmingSpaces()
            var valueStart = text.index(after: equals)
            var value: String
            if valueStart < text.endIndex, text[valueStart] == "\"" {
                valueStart = text.index(after: valueStart)
                let close = text[valueStart...].firstIndex(of: "\"") ?? text.endIndex
                value = String(text[valueStart..<close])
                index = close < text.endIndex ? text.index(after: close) : close
                if let comma = text[index...].firstIndex(of: ",") {
                    index = text.index(after: comma)
                } else {
                    index = text.endIndex
                }
            } else {
                let comma = text[valueStart...].firstIndex(of: ",") ?? text.endIndex
                value = String(text[valueStart..<comma])
                index = comma < text.endIndex ? text.index(after: comma) : comma
            }
            value = value.trimmingSpaces()
            result[key] = value
        }
        return result
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
