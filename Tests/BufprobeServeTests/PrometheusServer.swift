import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real Prometheus (Debian's /usr/bin/prometheus) on 127.0.0.1 with a generated configuration and its
/// storage in a temporary directory; killed and removed when dropped.
final class PrometheusServer {
    let port: Int
    let directory: URL
    private let process: Process

    /// Starts Prometheus with `configuration` (YAML) and waits (at most 30 s) until it is ready.
    init(configuration: String) throws {
        directory = try CheckServers.temporaryDirectory("bufprobe-prometheus")
        let file = directory.appendingPathComponent("prometheus.yml")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        port = try CheckServers.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        process.arguments = [
            "--config.file=\(file.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = directory.appendingPathComponent("prometheus.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            if (try? HTTPClient.get(port: port, "/-/ready", timeout: 2).status) == 200 { return }
            usleep(100_000)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        process.terminate()
        throw CheckServers.ServerError("prometheus did not become ready: \(text.suffix(2000))")
    }

    deinit {
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// An instant query through `/api/v1/query`: each series' labels and value.
    func query(_ expression: String) throws -> [(labels: [String: String], value: Double)] {
        let answer = try HTTPClient.get(port: port, "/api/v1/query?query=\(HTTPClient.encoded(expression))", timeout: 10)
        guard answer.status == 200,
            let document = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
            let data = document["data"] as? [String: Any], let result = data["result"] as? [[String: Any]]
        else { throw CheckServers.ServerError("query \(expression) answered \(answer.status): \(answer.body)") }
        return result.compactMap { series in
            guard let labels = series["metric"] as? [String: String], let pair = series["value"] as? [Any], pair.count == 2,
                let text = pair[1] as? String, let value = Double(text)
            else { return nil }
            return (labels, value)
        }
    }
}
