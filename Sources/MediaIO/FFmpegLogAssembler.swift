/// Joins the pieces FFmpeg logs one line in: `av_log` is often called several times for one line
/// (`"Packet corrupt (stream = 0, dts = 9000)"`, then `".\n"`), and only the last piece ends with a
/// newline. Pieces are kept per thread (FFmpeg logs on the thread that called it) until the newline;
/// the joined line takes the most severe level of its pieces. A line that never ends is cut at
/// `maximumLength` characters, so a hostile input cannot grow it.
package struct FFmpegLogAssembler {
    /// The longest line kept; longer ones are sent in parts of this length.
    package static let maximumLength = 4096

    private var pending: [UInt: (level: Int32, text: String)] = [:]

    /// No pieces yet.
    package init() {}

    /// Adds one piece logged on `thread`; returns the finished line (without its newline) and its level,
    /// or `nil` while the line goes on.
    package mutating func add(level: Int32, text: String, thread: UInt) -> (level: Int32, line: String)? {
        var joined = text
        var joinedLevel = level
        if let previous = pending.removeValue(forKey: thread) {
            joined = previous.text + text
            // FFmpeg's levels grow with verbosity: the smaller number is the more severe.
            joinedLevel = min(previous.level, level)
        }
        // `last?.isNewline`: "\r\n" is one Character in Swift.
        guard joined.last?.isNewline == true || joined.count >= Self.maximumLength else {
            pending[thread] = (joinedLevel, joined)
            return nil
        }
        while joined.last?.isNewline == true { joined.removeLast() }
        return (joinedLevel, String(joined.prefix(Self.maximumLength)))
    }
}
