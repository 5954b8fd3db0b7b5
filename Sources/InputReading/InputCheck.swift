import Foundation

/// Checks a command-line input before FFmpeg sees it, so the common mistakes get a clear sentence
/// instead of FFmpeg's generic error: a missing file, a directory, an empty file, a protocol bufprobe
/// does not read (`InputKind` decides which), a malformed network URL (`URLCheck`).
package enum InputCheck {
    /// Whether `input` names a URL (`scheme://...`) rather than a local path.
    package static func isURL(_ input: String) -> Bool {
        guard let range = input.range(of: "://") else { return false }
        let scheme = input[..<range.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// One sentence naming `input` and what is wrong with it, or `nil` when FFmpeg should try it.
    package static func problem(with input: String) -> String? {
        switch InputKind(input) {
        case .standardInput:
            // FFmpeg would wait for a terminal's keystrokes as if they were media.
            guard isatty(STDIN_FILENO) == 0 else {
                return "\(input) reads the media from standard input, which is a terminal: pipe or redirect it (< FILE)."
            }
            return nil
        case .file(let path):
            return problem(withPath: path, input: input)
        case .local(let name):
            guard let (_, rest) = InputKind.scheme(of: input) else { return nil }
            switch name {
            // FFmpeg splits a concat: list at every `|`; each part is an input of its own.
            case "concat": return rest.split(separator: "|").lazy.compactMap { problem(with: String($0)) }.first
            case "concatf", "subfile", "crypto", "async", "cache": return problem(with: String(rest))
            default: return nil
            }
        case .network:
            return URLCheck.problem(with: input)
        case .refused(let name, let known):
            let what = known ? "bufprobe does not read FFmpeg's '\(name)' protocol" : "'\(name)' is not a protocol (URL scheme) FFmpeg reads"
            return "\(input): \(what); an input is \(InputKind.accepted)."
        }
    }

    /// The checks on a local file at `path`, named `input` on the command line.
    private static func problem(withPath path: String, input: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "\(input): no such file."
        }
        if isDirectory.boolValue { return "\(input) is a directory, not a media file." }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "\(input) is not readable (permission denied)."
        }
        // Only a regular file's size says anything: a FIFO or a device reports 0 and still streams. A plain
        // stat: FileManager's attributes also look up the owner's user and group names (NSS, /etc/passwd).
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
            return "\(input) is empty (0 bytes), so it holds no media."
        }
        return nil
    }

    /// A sentence when FFmpeg opened `input` with a demuxer that accepts any text: the `tty` demuxer
    /// claims `.txt`, `.ans`, `.nfo`... files by extension and shows them as ANSI-art video, which is
    /// never what a bufprobe user means by media.
    package static func problem(with input: String, formatName: String) -> String? {
        guard formatName == "tty" else { return nil }
        return "\(input) is not a media file FFmpeg can read (it looks like text)."
    }
}
