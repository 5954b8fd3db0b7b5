import BufprobeServe
import Foundation
import Synchronization
import Testing
import TestSupport

/// Eight checks at once of a hostile live playlist that never slides and grows by 10,000 entries at every
/// load, from 330,000 at the first (hostile_server.py's /growing/ with `start`), so that the first read is
/// 12.7 MB and the later ones grow towards the 16 MiB read limit: the exporter's resident memory grows by no
/// more than the documented budget per check (issues 23 and 30). The first load is windowed like every
/// reload (`PrefetchedInput`); before, FFmpeg parsed it whole and eight such checks peaked at 857 MB to
/// 1.5 GB. Measured as serve's peak RSS (`VmHWM`) less its RSS before.
///
/// The first load is bufprobe's own read in place of FFmpeg's open of the input, and it waits for its
/// answer as that open would (the whole timeout): with half, a loaded machine (CI's shards) made the origin
/// answer too late, FFmpeg's own open asked again and parsed that load whole, and the checks peaked at
/// 38 MiB each. The loads asked of each playlist depend on the machine's speed (the checks last 20 s), so
/// the playlists start large and three loads a playlist are enough to pass 350,000 entries (13.5 MB).
@Suite("serve: memory per check")
struct ServeMemoryTests {
    @Test("eight checks of a live playlist near the 16 MiB read limit, growing by 10,000 entries a load, stay within the per-check budget and 300 MB in all")
    func growingPlaylists() throws {
        let origin = try FixtureServer(script: "hostile_server.py", arguments: ["--root", CheckServers.samples])
        let serve = try ServeProcess(["--max-parallel", "8"])
        let before = try #require(Self.residentKilobytes(serve.pid))
        let port = serve.port
        let count = 8
        let start = 320_000
        let step = 10_000
        let answers = Mutex<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<count {
            // /count/ records each request, so the test knows how far each playlist grew.
            let target = HTTPClient.encoded(
                "http://127.0.0.1:\(origin.port)/count/growing/hls/low/index.m3u8?id=\(index)&entries=\(step)&start=\(start)")
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

        // Each playlist was read once by bufprobe (the first load, 330,000 entries) and reloaded by FFmpeg:
        // three loads make the last one list 350,000 entries (13.5 MB), 70 times the window kept.
        let requests = try HTTPClient.get(port: origin.port, "/requests").body
        let loads = requests.split(separator: "\n").filter { $0.hasSuffix("/count/growing/hls/low/index.m3u8") }.count
        #expect(loads >= 3 * count, "\(loads) loads of the \(count) playlists")
        let perCheck = Double(peak - before) / 1024 / Double(count)
        let budget = Double(Exporter.memoryPerCheck) / 1_048_576
        print("serve memory: RSS before \(before) kB, peak \(peak) kB, \(String(format: "%.1f", perCheck)) MiB per check (budget \(budget) MiB), \(loads) loads")
        #expect(perCheck <= budget, "peak \(peak) kB from \(before) kB: \(perCheck) MiB per check, over the budget of \(budget) MiB")
        #expect(peak <= 300_000, "peak \(peak) kB: over 300 MB for eight checks")
    }

    private static func residentKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
