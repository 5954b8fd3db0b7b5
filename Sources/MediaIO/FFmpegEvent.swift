/// What a line of FFmpeg's log means, for the lines bufprobe reads a fact from: parsed once, as the line
/// is logged (`FFmpegLogLine`), so nothing past MediaIO reads FFmpeg's text. FFmpeg tells these only in
/// its log: an HLS segment that answers 404 is skipped with a warning and the stream goes on (or ends) as
/// if nothing happened; a body cut short and a Matroska file cut short end like complete ones.
public enum FFmpegEvent: Sendable, Hashable {
    /// `Opening 'URL' for reading`: a demuxer opens a resource (a playlist, a segment, a key).
    case opening(url: String)
    /// `HTTP error 404 Not Found`: an HTTP error answer, for the resource opened last.
    case httpError(status: Int, text: String)
    /// `Failed to open segment 2 of playlist 0`: the HLS demuxer skipped a segment.
    case segmentFailed(sequence: Int, playlist: Int)
    /// `Stream ends prematurely at 100000, should be 267227`: a body that ended before its declared length.
    case prematureEnd(received: Int64, expected: Int64)
    /// `Failed to resolve hostname NAME: ...`: the resolver failed on NAME (FFmpeg's error code says only
    /// "Input/output error").
    case unresolvedHost(String)
    /// `File ended prematurely`: the Matroska demuxer met the end of the file inside an element, and still
    /// reports a normal end of file.
    case fileEndedPrematurely

    /// The event `message` (a line without its `[name @ 0x...]` prefix) states, or `nil` for the others.
    package init?(message: String) {
        // Most lines are none of these: a regex literal is parsed each time it is evaluated, so the
        // literal prefix each pattern begins with decides first whether it is tried at all.
        if message.hasPrefix("Opening '") {
            guard let match = message.firstMatch(of: /^Opening '(.+)' for reading$/) else { return nil }
            self = .opening(url: String(match.1))
        } else if message.hasPrefix("HTTP error ") {
            guard let match = message.firstMatch(of: /^HTTP error (\d{3}) ?(.*)$/), let status = Int(match.1) else { return nil }
            self = .httpError(status: status, text: String(match.2))
        } else if message.hasPrefix("Failed to open segment ") {
            guard let match = message.firstMatch(of: /^Failed to open segment (\d+) of playlist (\d+)/),
                let sequence = Int(match.1), let playlist = Int(match.2)
            else { return nil }
            self = .segmentFailed(sequence: sequence, playlist: playlist)
        } else if message.hasPrefix("Stream ends prematurely at ") {
            guard let match = message.firstMatch(of: /^Stream ends prematurely at (\d+), should be (\d+)/),
                let received = Int64(match.1), let expected = Int64(match.2)
            else { return nil }
            self = .prematureEnd(received: received, expected: expected)
        } else if message.hasPrefix("Failed to resolve hostname ") {
            guard let match = message.firstMatch(of: /^Failed to resolve hostname (\S+?):/) else { return nil }
            self = .unresolvedHost(String(match.1))
        } else if message.hasPrefix("File ended prematurely") {
            self = .fileEndedPrematurely
        } else {
            return nil
        }
    }
}
