import Foundation
package import MediaIO
import BufprobeOutput

extension Interrupter.Reason {
    /// One sentence naming `source` and why bufprobe stopped reading it; `timeout` is `--timeout` in
    /// seconds, `opening` whether nothing had been read yet.
    package func sentence(for source: String, timeout: Double?, opening: Bool) -> String {
        let limit = timeout.map { "the \(TextFormat.seconds($0)) timeout" } ?? "the timeout"
        switch self {
        case .cancelled:
            return opening ? "\(source): interrupted while opening." : "\(source): reading was interrupted; the figures cover what was read."
        case .timeout:
            return opening
                ? "\(source) could not be opened: nothing arrived within \(limit) (--timeout)."
                : "\(source) sent nothing for \(limit) (--timeout); the figures cover what was read."
        case .requestLoop(let url):
            return "\(source) leads to a loop: \(url) was requested \(ResourceLimits.loopRequests) times within a second (a playlist that lists itself, or two that list each other), so bufprobe stopped requesting it."
        case .playlistUnfinished(let url, let bytes):
            return "\(source): the playlist \(url) sent \(TextFormat.bytes(bytes)) and had not ended when \(limit) (--timeout) ran out (a body that never ends?), so bufprobe stopped reading it."
        case .playlistTooLarge(let url):
            let mebibytes = ResourceLimits.playlistBytes >> 20
            return "\(source): the playlist \(url) is larger than \(mebibytes) MiB (a body that never ends?), so bufprobe stopped reading it."
        }
    }
}
