// JSON shape is the plain array of `[start, end]` pairs, like the ranges themselves; the tolerance is a
// property of how the set was built, not of the data, so it is not written.
extension TimeRanges: Codable {
    /// Decodes an array of `[start, end]` pairs, merging them with the default tolerance.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([TimeRange].self))
    }

    /// Encodes the ranges as an array of `[start, end]` pairs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ranges)
    }
}
