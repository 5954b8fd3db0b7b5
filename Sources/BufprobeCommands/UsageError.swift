package import ArgumentParser
import CheckEngine

/// A mistake on the command line, as bufprobe reports it: one `error:` sentence, then the usage line of
/// the command it concerns, exit 64. ArgumentParser's own errors (several lines, `Error:`, a `Help:` line)
/// are rewritten into this shape by `Bufprobe.execute`.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exit code of every usage error (`EX_USAGE`).
    public static let exitCode: Int32 = 64

    /// The sentence, without the `error: ` prefix.
    public var sentence: String
    /// The usage line of the command concerned (`bufprobe probe [<options>] <file> ...`).
    public var usage: String

    /// Creates an error; the sentence gets a full stop when it has none.
    public init(_ sentence: String, usage: String) {
        let trimmed = sentence.trimmingWhitespace
        self.sentence = trimmed.hasSuffix(".") || trimmed.hasSuffix("?") ? trimmed : trimmed + "."
        self.usage = usage
    }

    /// ArgumentParser's message for a parse or validation error, made one sentence naming the option:
    /// `The value '-1' is invalid for '--bandwidth <rate>': '-1' must not be negative; ...` becomes
    /// `--bandwidth: '-1' must not be negative; ...`; line breaks become spaces.
    public init(parserMessage message: String, usage: String) {
        var text = message.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace }.joined(separator: " ")
        if let rewritten = Self.optionValueSentence(text) { text = rewritten }
        self.init(Self.lowercasingFirstWord(text), usage: usage)
    }

    /// ArgumentParser's sentences start with a capital (`Unknown option '--nope'.`, `Missing expected
    /// argument`); bufprobe's start lower case. Only an ordinary word is lowered: a capital followed by a
    /// lower-case letter, never an acronym (`HLS`), an option or a quoted value.
    static func lowercasingFirstWord(_ text: String) -> String {
        let letters = Array(text.prefix(2))
        guard letters.count == 2, letters[0].isUppercase, letters[1].isLowercase else { return text }
        return letters[0].lowercased() + text.dropFirst()
    }

    /// `error: SENTENCE` and `usage: USAGE`, two lines for stderr.
    public var description: String { "error: \(sentence)\nusage: \(usage)\n" }

    /// `The value 'V' is invalid for 'OPTION <name>': REASON` as `OPTION: REASON`; `nil` for other messages.
    private static func optionValueSentence(_ text: String) -> String? {
        let prefix = "The value '"
        guard text.hasPrefix(prefix), let marker = text.range(of: "' is invalid for '") else { return nil }
        let value = text[text.index(text.startIndex, offsetBy: prefix.count)..<marker.lowerBound]
        let rest = text[marker.upperBound...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        let option = rest[..<close].split(separator: " ").first.map(String.init) ?? ""
        let after = rest[rest.index(after: close)...]
        if after.hasPrefix(": ") { return "\(option): \(after.dropFirst(2))" }
        // Enumerations list their values after a full stop: "... Please provide one of 'auto', 'tty'".
        let choices = after.drop { $0 == "." || $0 == " " }
        return choices.isEmpty
            ? "\(option) does not take '\(value)'"
            : "\(option) does not take '\(value)'; \(choices.prefix(1).lowercased())\(choices.dropFirst())"
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingWhitespace: String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return String(self[start..<Swift.max(start, end)])
    }
}

extension ParsableCommand {
    /// The command's usage on one line, from `bufprobe` (the line under a usage error).
    package static var oneLineUsage: String {
        let usage = usageString().split(whereSeparator: \.isNewline).joined(separator: " ")
        // A subcommand's generated usage starts at its own name.
        return usage.hasPrefix("bufprobe ") ? usage : "bufprobe " + usage
    }
}
