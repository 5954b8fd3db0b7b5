// JSON shape: a number of seconds when finite, else the string "unknown" or "unbounded", so scripts can read
// the common case as a plain number.
extension MediaDuration: Codable {
    /// Decodes a number of seconds, `"unknown"` or `"unbounded"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            self = .finite(seconds)
            return
        }
        switch try container.decode(String.self) {
        case "unknown": self = .unknown
        case "unbounded", "live": self = .unbounded
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A duration is a number of seconds, \"unknown\" or \"unbounded\".")
        }
    }

    /// Encodes a number of seconds, `"unknown"` or `"unbounded"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .finite(let seconds): try container.encode(seconds)
        case .unknown: try container.encode("unknown")
        case .unbounded: try container.encode("unbounded")
        }
    }
}
