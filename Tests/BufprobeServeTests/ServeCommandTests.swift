import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The real `bufprobe serve` against nginx on 127.0.0.1: answers, refusals and shutdown.
@Suite("serve: the exporter end to end", .serialized)
struct ServeCommandTests {
    static let file = "h264-aac.mp4"

    /// Bytes per second that deliver the 10 s sample at half its average bit rate: it stalls.
    static var halfRate: Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: BufprobeProcess.sample(file))[.size] as? Int) ?? 267_227
        return size / 10 / 2
    }

    @Test("a probe answers the check's metrics; /metrics counts it; the request is logged on one line")
    func probeAnswersMetrics() throws {
        let nginx = try NginxServer()
        let serve = try ServeProcess()
        let target = nginx.url(Self.file)
        let answer = try serve.get("/probe?target=\(HTTPClient.encoded(target))")
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(answer.headers["bufprobe-verdict"] == "pass")
        let metrics = try Exposition(answer.body)
        #expect(metrics.value("bufprobe_probe_success") == 1)
        #expect(metrics.value("bufprobe_verdict", ["verdict": "pass"]) == 1)
        #expect(metrics.value("bufprobe_stalls") == 0)
        #expect(metrics.value("bufprobe_probe_info", ["target": target]) == 1)
        let own = try serve.metrics()
        #expect(own.value("bufprobe_exporter_checks_total", ["verdict": "pass"]) == 1)
        #expect(own.value("bufprobe_exporter_checks_in_flight") == 0)
        #expect(own.value("bufprobe_exporter_check_duration_seconds_count") == 1)
        // The line is written as the response ends: wait for it rather than read stderr at once.
        #expect(serve.logged("GET /probe 200"), "\(serve.stderr)")
        let lines = serve.stderr.split(separator: "\n")
        #expect(lines.contains { $0.contains("GET /probe 200") && $0.contains("verdict=pass") && $0.contains("target=\(target)") },
            "\(serve.stderr)")
        #expect(serve.logged("GET /metrics 200"))
    }

    @Test("three scrapes of one target answer their labelled lines in the same order (bufprobe_verdict: pass, degraded, fail)")
    func stableOrder() throws {
        let nginx = try NginxServer()
        let serve = try ServeProcess()
        let path = "/probe?target=\(HTTPClient.encoded(nginx.url(Self.file)))"
        // The sample lines without their values: names and label sets, in the order written.
        let orders = try (0..<3).map { _ in
            let answer = try serve.get(path)
            #expect(answer.status == 200, "\(answer.body)")
            return answer.body.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").dropLast().joined(separator: " ") }
        }
        #expect(orders[0].count > 20)
        #expect(orders[1] == orders[0])
        #expect(orders[2] == orders[0])
        #expect(orders[0].filter { $0.hasPrefix("bufprobe_verdict{") }
            == [#"bufprobe_verdict{verdict="pass"}"#, #"bufprobe_verdict{verdict="degraded"}"#, #"bufprobe_verdict{verdict="fail"}"#])
        // Each family's # HELP and # TYPE come once, right before its first sample.
        let comments = try serve.get(path).body.split(separator: "\n").filter { $0.hasPrefix("# TYPE bufprobe_verdict ") }
        #expect(comments.count == 1)
    }

    @Test("a refused target is 403, a bad parameter 400, an unknown path 404, each with one sentence and counted")
    func refusals() throws {
        let nginx = try NginxServer()
        let serve = try ServeProcess(["--allow-target", #"http://127\.0\.0\.1:\#(nginx.port)/allowed/.*"#])
        #expect(serve.stderr.contains("targets must match one of 1 --allow-target pattern"))
        let cases: [(String, Int, String)] = [
            ("/probe?target=\(HTTPClient.encoded(nginx.url(Self.file)))", 403, "matches no --allow-target pattern"),
            ("/probe?target=\(HTTPClient.encoded("file:" + BufprobeProcess.sample(Self.file)))", 403, "is a local file"),
            ("/probe?target=\(HTTPClient.encoded(BufprobeProcess.sample(Self.file)))", 403, "is refused"),
            ("/probe?target=\(HTTPClient.encoded(nginx.url("allowed/a.mp4")))&duration=soon", 400, "duration: 'soon' is not a duration"),
            ("/probe?target=\(HTTPClient.encoded(nginx.url("allowed/a.mp4")))&module=http_2xx", 400, "there is no module 'http_2xx'; the modules are default."),
            ("/probe", 400, "/probe needs a target parameter"),
            ("/nowhere", 404, "Not found"),
            ("/probe?target=http://x/" + String(repeating: "a", count: 9000), 414, "the query is longer than 8192 bytes."),
        ]
        for (path, status, sentence) in cases {
            let answer = try serve.get(path)
            #expect(answer.status == status, "\(path): \(answer.body)")
            #expect(answer.body.hasPrefix(sentence) || answer.body.contains(sentence), "\(path): \(answer.body)")
            #expect(answer.body.split(separator: "\n").count == 1, "\(answer.body)")
        }
        // Control characters are refused at the boundary (issue 23: 400, before the allow-list).
        let hostile = try serve.get("/probe?target=\(HTTPClient.encoded("http://evil/\u{1b}]0;owned\u{7}\n"))")
        #expect(hostile.status == 400)
        #expect(!serve.stderr.contains("\u{1b}"), "a request must never put an escape on the operator's terminal")
        #expect(serve.logged("control character U+001B"), "\(serve.stderr)")
        // A request line far past any limit is refused by the HTTP parser (or the connection is closed
        // before it is all sent); the exporter goes on answering.
        let huge = try? serve.get("/probe?target=http://x/" + String(repeating: "a", count: 300_000))
        #expect(huge == nil || huge?.status == 400)
        let own = try serve.metrics()
        #expect(own.value("bufprobe_exporter_failures_total", ["reason": "uri_too_long"]) == 1)
        #expect(own.value("bufprobe_exporter_failures_total", ["reason": "forbidden"]) == 3)
        #expect(own.value("bufprobe_exporter_failures_total", ["reason": "bad_request"]) == 4)
        #expect(own.value("bufprobe_exporter_checks_total", ["verdict": "pass"]) == 0)
        #expect(nginx.requestedPaths().isEmpty, "a refused target must not be fetched")
    }

    @Test("a local file is probed only through an --allow-target pattern that starts with file:")
    func fileNeedsExplicitPattern() throws {
        let path = BufprobeProcess.sample(Self.file)
        let directory = (path as NSString).deletingLastPathComponent
        let catchAll = try ServeProcess(["--allow-target", ".*"])
        #expect(try catchAll.get("/probe?target=\(HTTPClient.encoded("file:" + path))").status == 403)
        let files = try ServeProcess(["--allow-target", "file:\(NSRegularExpression.escapedPattern(for: directory))/.*"])
        let answer = try files.get("/probe?target=\(HTTPClient.encoded("file:" + path))")
        #expect(answer.status == 200, "\(answer.body)")
        #expect(try Exposition(answer.body).value("bufprobe_verdict", ["verdict": "pass"]) == 1)
    }

    @Test("SIGTERM: no new connections, the check in flight ends and is answered, exit 0")
    func sigtermDrains() throws {
        let rate = Self.halfRate
        let nginx = try NginxServer(rates: [rate])
        let serve = try ServeProcess()
        let target = HTTPClient.encoded(nginx.url(Self.file, bytesPerSecond: rate))
        let port = serve.port
        nonisolated(unsafe) var inFlight: Result<HTTPClient.Response, any Error>?
        let done = DispatchSemaphore(value: 0)
        Thread {
            inFlight = Result { try HTTPClient.get(port: port, "/probe?target=\(target)&duration=2.5s", timeout: 20) }
            done.signal()
        }.start()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? serve.metrics().value("bufprobe_exporter_checks_in_flight")) != 1 { usleep(20_000) }
        #expect(try serve.metrics().value("bufprobe_exporter_checks_in_flight") == 1)
        let signalled = Date()
        serve.send(SIGTERM)
        usleep(300_000)
        #expect(throws: (any Error).self, "the listener must close at once") { try serve.get("/metrics", timeout: 2) }
        #expect(done.wait(timeout: .now() + 20) == .success)
        let answer = try #require(try inFlight?.get())
        #expect(answer.status == 200)
        let metrics = try Exposition(answer.body)
        #expect(metrics.value("bufprobe_probe_success") == 1, "the check must finish, not be cancelled: \(answer.body)")
        #expect(metrics.value("bufprobe_stalls") != nil)
        #expect(serve.exitStatus(within: 10) == 0, "\(serve.stderr)")
        #expect(Date().timeIntervalSince(signalled) < 10)
        #expect(serve.stderr.contains("stopping: no new connections; waiting for 1 check(s) in flight."))
        #expect(serve.stderr.contains("stopped."))
    }

    @Test("SIGTERM or Ctrl-C with nothing in flight exits 0 at once", arguments: [SIGTERM, SIGINT])
    func idleSignalExitsZero(signal: Int32) throws {
        let serve = try ServeProcess()
        #expect(try serve.get("/metrics").status == 200)
        serve.send(signal)
        #expect(serve.exitStatus(within: 5) == 0, "\(serve.stderr)")
    }

    @Test("an address in use is exit 1 with one error sentence; a bad option is a usage error, exit 64")
    func listenFailures() throws {
        let serve = try ServeProcess()
        let busy = try BufprobeProcess.run(["serve", "--listen", "127.0.0.1:\(serve.port)"], timeout: 20)
        #expect(busy.status == 1, "\(busy.stderr)")
        #expect(busy.stderr.contains("error: could not serve on 127.0.0.1:\(serve.port): the address is already in use"), "\(busy.stderr)")
        for arguments in [["--listen", "nohost"], ["--listen", "127.0.0.1:70000"], ["--max-parallel", "0"], ["--allow-target", "(x"]] {
            let run = try BufprobeProcess.run(["serve"] + arguments, timeout: 20)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("error: "), "\(run.stderr)")
        }
    }
}
