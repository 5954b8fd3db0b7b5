import Foundation
import Synchronization
import Testing
import TestSupport

/// 50 concurrent `/probe` requests against `serve --max-parallel 8`: every one answered (200 or 503 with
/// Retry-After), never more than 8 checks at once, and the exporter still answers after.
@Suite("serve: load")
struct ServeLoadTests {
    @Test("50 concurrent probes with --max-parallel 8: none lost or hung, at most 8 in flight, the rest 503")
    func fiftyConcurrentProbes() throws {
        let rate = ServeCommandTests.halfRate
        let nginx = try NginxServer(rates: [rate])
        let serve = try ServeProcess(["--max-parallel", "8"])
        let target = HTTPClient.encoded(nginx.url(ServeCommandTests.file, bytesPerSecond: rate))
        let port = serve.port
        let count = 50
        let answers = Mutex<[Result<HTTPClient.Response, any Error>]>([])
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            group.enter()
            Thread {
                start.wait()
                let answer = Result { try HTTPClient.get(port: port, "/probe?target=\(target)&duration=2s", timeout: 30) }
                answers.withLock { $0.append(answer) }
                group.leave()
            }.start()
        }
        let began = Date()
        for _ in 0..<count { start.signal() }
        #expect(group.wait(timeout: .now() + 60) == .success, "every request must be answered, none hung")
        let seconds = Date().timeIntervalSince(began)
        let results = answers.withLock { $0 }
        let failures = results.compactMap { result -> String? in
            if case .failure(let error) = result { return "\(error)" }
            return nil
        }
        #expect(failures.isEmpty, "lost requests: \(failures)")
        let responses = results.compactMap { try? $0.get() }
        let ok = responses.filter { $0.status == 200 }
        let busy = responses.filter { $0.status == 503 }
        #expect(ok.count + busy.count == count, "statuses: \(responses.map(\.status))")
        #expect(!ok.isEmpty)
        #expect(!busy.isEmpty, "50 requests at once with 8 slots must turn some away")
        #expect(busy.allSatisfy { $0.headers["retry-after"] == "1" && $0.body.contains("--max-parallel") })
        #expect(ok.allSatisfy { (try? Exposition($0.body).value("bufprobe_probe_success")) != nil })

        let own = try serve.metrics()
        let peak = try #require(own.value("bufprobe_exporter_checks_in_flight_peak"))
        #expect(peak >= 1 && peak <= 8, "peak in flight \(peak)")
        #expect(own.value("bufprobe_exporter_checks_in_flight") == 0)
        #expect(own.value("bufprobe_exporter_failures_total", ["reason": "overloaded"]) == Double(busy.count))
        let checks = ["pass", "degraded", "fail"].compactMap { own.value("bufprobe_exporter_checks_total", ["verdict": $0]) }
        #expect(checks.reduce(0, +) == Double(ok.count))
        let rss = serve.peakResidentKilobytes()
        print("serve load: \(count) requests in \(String(format: "%.1f", seconds)) s: \(ok.count) x 200, \(busy.count) x 503, peak in flight \(Int(peak)), peak RSS (VmHWM) \(rss.map { "\($0) kB" } ?? "unknown")")
        // A generous sanity bound only: 8 checks of a small file.
        #expect((rss ?? 0) < 1_000_000)
    }
}
