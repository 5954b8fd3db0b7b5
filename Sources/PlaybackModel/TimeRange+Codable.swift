// JSON shape is the two-element array `[start, end]`: compact in timelines that hold many ranges, and the
// shape ITU-T P.1203 style inputs and most players' debug dumps already use.
extension TimeRange: Codable {
    /// Decodes a range from the two-element array `[start, end]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let start = try container.decode(Double.self)
        let end = try container.decode(Double.self)
        if !container.isAtEnd {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A time range is a two-element array [start, end].")
        }
        self.init(start: start, end: end)
    }

    /// Encodes the range as the two-element array `[start, end]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(start)
        try container.encode(end)
    }
}
