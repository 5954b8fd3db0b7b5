public import ArgumentParser
import CheckEngine

/// An option value that is one of a fixed list of words, each its case's raw value (`--progress tty`).
/// ArgumentParser's own defaults for such enums describe each case through generic look-ups that cost
/// about a million instructions per enum at every start (protocol-conformance scans of the whole
/// binary); these say the same words directly.
public protocol RawValueArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension RawValueArgument {
    /// Every case's word, in declaration order (the help's value list and shell completions).
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }

    /// The word for this case (the help's default).
    public var defaultValueDescription: String { rawValue }
}
