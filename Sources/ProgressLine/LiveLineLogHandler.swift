public import Logging

/// A swift-log handler that prints every log line above the live line (`LiveLine.printAbove`), so
/// warnings and FFmpeg's log never tear the status line. Lines read `label: level: message key=value`.
///
/// With no line given it uses `LiveLine.current` at the time of each message, so the logging system
/// can be bootstrapped once, before any line exists; with no line at all it writes to stderr.
public struct LiveLineLogHandler: LogHandler {
    /// Messages below this level are dropped by `Logger`.
    public var logLevel: Logger.Level
    /// Metadata added to every message of this handler.
    public var metadata: Logger.Metadata = [:]
    /// The logger's label, printed first.
    public let label: String
    private let line: LiveLine?
    private let fallback: any TerminalSink

    /// A handler for the logger `label`, printing above `line` (nil: `LiveLine.current`).
    public init(label: String, line: LiveLine? = nil, logLevel: Logger.Level = .info, fallback: any TerminalSink = StandardErrorSink()) {
        self.label = label
        self.line = line
        self.logLevel = logLevel
        self.fallback = fallback
    }

    /// Metadata for one key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Formats the event and prints it above the line.
    public func log(event: LogEvent) {
        let text = Self.format(label: label, level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        if let target = line ?? LiveLine.current {
            target.printAbove(text)
        } else {
            fallback.write(TerminalText.escaped(text) + "\n")
        }
    }

    /// `label: level: message key=value ...`, metadata sorted by key.
    public static func format(label: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var text = "\(label): \(level.rawValue): \(message)"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            text += " \(key)=\(value)"
        }
        return text
    }
}
