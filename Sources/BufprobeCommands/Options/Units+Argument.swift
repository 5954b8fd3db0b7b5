public import ArgumentParser
public import PlaybackModel
import CheckEngine

// The command line's side of the one unit grammar (PlaybackModel's `Seconds`, `BitRate`, `ByteRate`,
// `Factor`). Options declare `transform: Seconds.argument` as well as the type, so that a refusal reaches
// the user as the parser's sentence ("'-1' must not be negative; expected ..."), which `init?(argument:)`
// cannot carry; `UsageError` puts the option's name in front. Options that take one of these also parse
// `.unconditional`ly: otherwise ArgumentParser reads `--bandwidth -1` as a missing value and a flag `-1`.

extension Seconds: ExpressibleByArgument {
    /// Parses the one duration grammar; `nil` for anything `init(parsing:)` refuses.
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// The `transform:` of a duration option: the parsed value, or the `UnitError` sentence.
    public static func argument(_ text: String) throws -> Seconds { try Seconds(parsing: text) }
}

extension BitRate: ExpressibleByArgument {
    /// Parses the one rate grammar; `nil` for anything `init(parsing:)` refuses.
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// The `transform:` of a rate option: the parsed value, or the `UnitError` sentence.
    public static func argument(_ text: String) throws -> BitRate { try BitRate(parsing: text) }

    /// The `transform:` of a network's bandwidth (`simulate --bandwidth`): a rate as meant, no 0 (an
    /// outage is a script's step) and no unit-less number below 1,000.
    public static func bandwidthArgument(_ text: String) throws -> BitRate {
        try BitRate(parsingAsMeant: text, zero: BitRate.zeroBandwidth)
    }

    /// The `transform:` of a media's bit rate (`simulate --bitrate`): a rate as meant, above 0.
    public static func mediaArgument(_ text: String) throws -> BitRate {
        try BitRate(parsingAsMeant: text, zero: BitRate.zeroMediaBitRate)
    }
}

extension ByteRate: ExpressibleByArgument {
    /// Parses the one rate grammar; `nil` for anything `init(parsing:)` refuses.
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// The `transform:` of a byte-rate option: the parsed value, or the `UnitError` sentence.
    public static func argument(_ text: String) throws -> ByteRate { try ByteRate(parsing: text) }
}

extension Factor: ExpressibleByArgument {
    /// Parses `1.5` or `2x`; `nil` for anything `init(parsing:)` refuses.
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// The `transform:` of a multiple option: the parsed value, or the `UnitError` sentence.
    public static func argument(_ text: String) throws -> Factor { try Factor(parsing: text) }
}

// The check engine's option values, read from the command line by the initialisers they declare.
extension ReadRate: ExpressibleByArgument {}
extension VariantChoice: ExpressibleByArgument {}
extension LiveStart: ExpressibleByArgument {}
extension ThroughputRecording.Format: RawValueArgument {}
