import Foundation
import TestSupport

/// `Fixtures/fault_server.py`: an HTTP server that misbehaves on purpose (see the script's header);
/// `script` picks another server of the same kind (`escape_server.py`, `hostile_server.py`).
final class FaultServer {
    private let server: FixtureServer
    /// The port it listens on.
    var port: Int { server.port }

    /// Starts `script` (in Fixtures) serving `root` (default: the samples).
    init(script: String = "fault_server.py", root: String = CheckServers.samples) throws {
        server = try FixtureServer(script: script, arguments: ["--root", root])
    }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
}
