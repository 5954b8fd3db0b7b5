
import PlaybackModel
import BufprobeOutput

/// Which HLS/DASH variant `check` plays (`--variant`), as a player would pick one rendition.
public enum VariantChoice: Sendable, Hashable, CustomStringConvertible {
    /// The variant with the highest declared bandwidth (the default).
    case best
    /// The variant with the lowest declared bandwidth.
    case lowest
    /// The variant at this 0-based position in the playlist (as listed in `variants[].index`).
    case index(Int)
    /// The highest variant whose declared bandwidth fits in this many bit/s (the lowest when none fits),
    /// as a player capped at that bandwidth chooses.
    case bandwidth(Double)

    /// Numbers below this are variant positions; from it on (or with a `k`/`M`/`G` suffix), bandwidths.
    package static let smallestBandwidth = 1000

    /// Parses `best`, `lowest`, a position (`0`, `1`...) or a bandwidth in the one rate grammar of `BitRate`
    /// (`500000`, `500k`, `1.2Mbit`).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "best": self = .best
        case "lowest": self = .lowest
        default:
            if let position = Int(argument), position >= 0, position < Self.smallestBandwidth {
                self = .index(position)
            } else if let rate = try? BitRate(parsing: argument), rate.bitsPerSecond >= Double(Self.smallestBandwidth) {
                self = .bandwidth(rate.bitsPerSecond)
            } else {
                return nil
            }
        }
    }

    /// The `transform:` of `--variant`: the choice, the rate grammar's sentence for a rate it refuses
    /// (`-1`, `1e19`), or a sentence listing the accepted forms.
    package static func argument(_ text: String) throws -> VariantChoice {
        if let choice = VariantChoice(argument: text) { return choice }
        if case .failure(let error) = Result(catching: { () throws(UnitError) in try BitRate(parsing: text) }),
            error.reason != nil
        {
            throw error
        }
        throw UnitError(
            quantity: .bitRate, text: text,
            reason: "is not best, lowest, a 0-based position below \(smallestBandwidth) or a bandwidth")
    }

    /// `best`, `lowest`, `2`, `500 kbit/s`.
    public var description: String {
        switch self {
        case .best: "best"
        case .lowest: "lowest"
        case .index(let position): String(position)
        case .bandwidth(let rate): TextFormat.bitRate(rate)
        }
    }

    /// The position in `bandwidths` (one per variant, declared bit/s) this choice picks, or `nil` when
    /// the position does not exist or there are no variants. Variants without a declared bandwidth rank
    /// below every declared one.
    package func select(bandwidths: [Int64?]) -> Int? {
        guard !bandwidths.isEmpty else { return nil }
        let ranked = bandwidths.indices.sorted { a, b in
            let (ra, rb) = (bandwidths[a] ?? -1, bandwidths[b] ?? -1)
            return ra != rb ? ra < rb : a < b
        }
        switch self {
        case .best: return ranked.last
        case .lowest: return ranked.first
        case .index(let position): return bandwidths.indices.contains(position) ? position : nil
        case .bandwidth(let cap):
            return ranked.last { Double(bandwidths[$0] ?? -1) <= cap } ?? ranked.first
        }
    }
}
