public import Logging

/// One finished line of FFmpeg's log, read once at MediaIO's boundary (`FFmpegLog`): its severity, its
/// text without the addresses that change every run, and what it means when bufprobe reads a fact from
/// it (`FFmpegEvent`).
public struct FFmpegLogLine: Sendable, Hashable {
    /// The line's level, as `FFmpegLog` forwards it to swift-log.
    public var level: Logger.Level
    /// The line as FFmpeg formatted it, addresses removed: `[mov,mp4] partial file`.
    public var text: String
    /// What the line means, when it is one bufprobe reads a fact from.
    public var event: FFmpegEvent?

    /// A warning or an error (what `check --json` lists among its warnings).
    public var isProblem: Bool { level >= .warning }

    /// Reads one line as FFmpeg's log callback formats it (`[name @ 0x...] message`, no newline).
    package init(level: Logger.Level, line: String) {
        self.level = level
        text = Self.withoutAddresses(line)
        event = FFmpegEvent(message: Self.message(text))
    }

    /// "[http] HTTP error 404 Not Found" -> "HTTP error 404 Not Found".
    private static func message(_ line: String) -> String {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        return String(line[line.index(after: close)...].drop(while: { $0 == " " }))
    }

    /// "[mov,mp4 @ 0x55d0c2a3b980] partial file" -> "[mov,mp4] partial file": addresses change every run.
    private static func withoutAddresses(_ line: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let at = rest.range(of: " @ 0x") {
            result += rest[..<at.lowerBound]
            rest = rest[at.upperBound...].drop(while: \.isHexDigit)
        }
        return result + rest
    }
}
