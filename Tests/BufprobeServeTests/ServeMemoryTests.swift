import BufprobeServe
import Foundation
import Synchronization
import Testing
import TestSupport

/// Eight checks at once of a hostile live playlist that grows by 20,000 entries at every load (40,000 in
/// FFmpeg's first read) and never
/// slides (hostile_server.py's /growing/): the exporter's resident memory grows by no more than the
/// documented budget per check (issue 23). Measured as serve's peak RSS (`VmHWM`) less its RSS before.
@Suite("serve: memory per check")
struct ServeMemoryTests {
    @Test("eight checks of a live playlist growing by 20,000 entries a load stay within the per-check budget")
    func growingPlaylists() throws {
        let origin = try FixtureServer(script: "hostile_server.py", arguments: ["--root", CheckServers.samples])
        let serve = try ServeProcess(["--max-parallel", "8"])
        let before = try #require(Self.residentKilobytes(serve.pid))
        let port = serve.port
        let count = 8
        let answers = Mutex<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<count {
            // /count/ records each request, so the test knows how far each playlist grew. The check reads the
            // playlist once itself before FFmpeg does (`--live-start`), so FFmpeg's first read, which it parses
            // whole, lists 40,000 entries, and each reload 20,000 more.
            let target = HTTPClient.encoded("http://127.0.0.1:\(origin.port)/count/growing/hls/low/index.m3u8?id=\(index)&entries=20000")
            group.enter()
            Thread {
                let status = (try? HTTPClient.get(
                    port: port, "/probe?target=\(target)&duration=20s",
                    headers: ["X-Prometheus-Scrape-Timeout-Seconds": "25"], timeout: 50))?.status ?? 0
                answers.withLock { $0.append(status) }
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 70) == .success, "every probe must be answered")
        let peak = try #require(serve.peakResidentKilobytes())
        #expect(answers.withLock { $0 } == Array(repeating: 200, count: count))

        // The playlists were reloaded: three loads each make the last one list 60,000 entries, 12 times the
        // window kept.
        let requests = try HTTPClient.get(port: origin.port, "/requests").body
        let loads = requests.split(separator: "\n").filter { $0.hasSuffix("/count/growing/hls/low/index.m3u8") }.count
        #expect(loads >= 3 * count, "\(loads) loads of the \(count) playlists")
        let perCheck = Double(peak - before) / 1024 / Double(count)
        let budget = Double(Exporter.memoryPerCheck) / 1_048_576
        print("serve memory: RSS before \(before) kB, peak \(peak) kB, \(String(format: "%.1f", perCheck)) MiB per check (budget \(budget) MiB)")
        #expect(perCheck <= budget, "peak \(peak) kB from \(before) kB: \(perCheck) MiB per check, over the budget of \(budget) MiB")
    }

    private static func residentKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
