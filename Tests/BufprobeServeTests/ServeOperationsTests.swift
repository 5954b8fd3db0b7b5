import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The conventions of Prometheus exporters, on the real `bufprobe serve` against nginx on 127.0.0.1: the
/// configuration file's modules (`--config.file`, `--config.check`, reloads), `debug=true`, and the `/`
/// page of recent probes with their logs.
@Suite("serve: modules, reloads, debug answers and recent probes", .serialized)
struct ServeOperationsTests {
    static let file = ServeCommandTests.file

    /// What `curl -s -m 10 ARGUMENTS` writes on stdout.
    static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-m", "10"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// `curl -X POST` (the tests' own client speaks GET only): the status and the body.
    static func post(port: Int, _ path: String) throws -> (status: Int, body: String) {
        let text = try curl(["-X", "POST", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (status, String(text.dropLast(String(status).count)))
    }

    static func writeConfig(_ text: String, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("bufprobe.yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test("--config.check: 0 naming the modules of the shipped example; 1 with one sentence for a bad file; it needs --config.file")
    func configCheck() throws {
        let example = BufprobeProcess.packageRoot.appendingPathComponent("docs/bufprobe-modules.yml").path
        let good = try BufprobeProcess.run(["serve", "--config.file", example, "--config.check"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("is valid: 3 module(s): default, hls_live, vod_progressive."), "\(good.stdout)")
        let directory = try CheckServers.temporaryDirectory("bufprobe-config")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = try Self.writeConfig("modules:\n  a:\n    timeout: forever\n", in: directory)
        let refused = try BufprobeProcess.run(["serve", "--config.file", bad, "--config.check"])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("module a: timeout:"), "\(refused.stderr)")
        // Starting with a bad file is the same error, before listening.
        let start = try BufprobeProcess.run(["serve", "--listen", "127.0.0.1:0", "--config.file", bad], timeout: 20)
        #expect(start.status == 1 && start.stderr.contains("module a: timeout:"), "\(start.stderr)")
        #expect(try BufprobeProcess.run(["serve", "--config.check"]).status == 64)
    }

    @Test("debug=true answers the check's log, its metrics and its settings as text; / lists the probe and links the same log")
    func debugAndRecentProbes() throws {
        let nginx = try NginxServer()
        let serve = try ServeProcess()
        let target = nginx.url(Self.file)
        let answer = try serve.get("/probe?target=\(HTTPClient.encoded(target))&duration=2s&debug=true")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")
        for part in ["Logs for the probe:", "verdict: pass", "Metrics that would have been returned:", "bufprobe_probe_success 1",
                     "Check settings:", "duration: 2.0s", "user_agent: bufprobe/", "Module configuration:", "module: default"] {
            #expect(answer.body.contains(part), "debug answer lacks '\(part)':\n\(answer.body)")
        }
        _ = try serve.get("/probe?target=\(HTTPClient.encoded(nginx.url("missing.mp4")))&duration=1s")
        let page = try serve.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        let body = page.body
        let newest = try #require(body.range(of: "missing.mp4"), "\(body)")
        let older = try #require(body.range(of: Self.file))
        #expect(newest.lowerBound < older.lowerBound, "newest first")
        #expect(body.contains("class=\"fail\">fail<") && body.contains("class=\"pass\">pass<"))
        #expect(body.contains("href=\"/logs?id=1\"") && body.contains("href=\"/logs?id=2\""))
        let log = try serve.get("/logs?id=1")
        #expect(log.status == 200 && log.body.contains("target: \(target)") && log.body.contains("verdict: pass"))
        #expect(try serve.get("/logs?id=99").status == 404)
        #expect(try serve.get("/logs?id=x").status == 400)
        #expect(try serve.get("/probe?target=\(HTTPClient.encoded(target))&debug=maybe").status == 400)
    }

    @Test("module= runs the check with the module's policy and allow-list; an unknown module is 400; no module= uses the file's default")
    func modulesSelectSettings() throws {
        let nginx = try NginxServer()
        let directory = try CheckServers.temporaryDirectory("bufprobe-config")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.writeConfig("""
            modules:
              default:
                duration: 1s
              slow_start:
                duration: 1500ms
                policy: {start_threshold: 3s, resume_threshold: 4s, max_buffer: 20s}
                player: hlsjs
                headers: ["X-Secret: hunter2"]
              elsewhere:
                allow_targets: ['http://127\\.0\\.0\\.2:.*']
            """, in: directory)
        let serve = try ServeProcess(["--config.file", config])
        let target = HTTPClient.encoded(nginx.url(Self.file))
        let slow = try serve.get("/probe?target=\(target)&module=slow_start&debug=true")
        #expect(slow.status == 200)
        for part in ["module: slow_start", "start_threshold: 3.0s", "resume_threshold: 4.0s", "max_buffer: 20.0s", "player: hlsjs",
                     "duration: 1.5s", "header: X-Secret: <17 characters>", "headers: 1"] {
            #expect(slow.body.contains(part), "lacks '\(part)':\n\(slow.body)")
        }
        #expect(!slow.body.contains("hunter2"), "a header's value is never shown")
        let plain = try serve.get("/probe?target=\(target)&debug=true")
        #expect(plain.body.contains("module: default") && plain.body.contains("duration: 1.0s"), "\(plain.body)")
        let refused = try serve.get("/probe?target=\(target)&module=elsewhere")
        #expect(refused.status == 403 && refused.body.hasPrefix("module elsewhere: "), "\(refused.body)")
        let unknown = try serve.get("/probe?target=\(target)&module=nope")
        #expect(unknown.status == 400 && unknown.body.contains("the modules are default, elsewhere, slow_start"), "\(unknown.body)")
        #expect(try serve.metrics().value("bufprobe_exporter_config_last_reload_successful") == 1)
    }

    @Test("POST /-/reload and SIGHUP load the changed file; a bad file keeps the previous modules, is logged and counted")
    func reloads() throws {
        let nginx = try NginxServer()
        let directory = try CheckServers.temporaryDirectory("bufprobe-config")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.writeConfig("modules:\n  first:\n", in: directory)
        let serve = try ServeProcess(["--config.file", config])
        let target = HTTPClient.encoded(nginx.url(Self.file))
        // A module whose allow-list refuses the target answers 403 without running a check: proof it is loaded.
        let probeSecond = { try serve.get("/probe?target=\(target)&module=second").status }
        #expect(try probeSecond() == 400)

        _ = try Self.writeConfig("modules:\n  second:\n    allow_targets: ['none']\n", in: directory)
        let reloaded = try Self.post(port: serve.port, "/-/reload")
        #expect(reloaded.status == 200 && reloaded.body.contains("1 module(s)"), "\(reloaded)")
        #expect(try probeSecond() == 403)
        #expect(try serve.get("/-/reload").status == 405)

        _ = try Self.writeConfig("modules:\n  second:\n    allow_targets: ['(']\n", in: directory)
        let failed = try Self.post(port: serve.port, "/-/reload")
        #expect(failed.status == 500 && failed.body.contains("the previous configuration stays"), "\(failed)")
        #expect(try probeSecond() == 403, "the previous configuration is still in force")
        var metrics = try serve.metrics()
        #expect(metrics.value("bufprobe_exporter_config_reload_failures_total") == 1)
        #expect(metrics.value("bufprobe_exporter_config_last_reload_successful") == 0)

        // SIGHUP reloads instead of stopping when there is a file.
        _ = try Self.writeConfig("modules:\n  third:\n", in: directory)
        serve.send(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !serve.stderr.contains("SIGHUP: reloaded") { usleep(50_000) }
        #expect(serve.stderr.contains("SIGHUP: reloaded"), "\(serve.stderr)")
        #expect(serve.exitStatus(within: 0.2) == nil, "SIGHUP must not stop the exporter")
        #expect(try probeSecond() == 400)
        #expect(try serve.get("/probe?target=\(target)&module=third&duration=1s").status == 200)
        metrics = try serve.metrics()
        #expect(metrics.value("bufprobe_exporter_config_last_reload_successful") == 1)
        #expect(metrics.value("bufprobe_exporter_config_reload_failures_total") == 1)
        #expect(serve.logged("reload failed, the previous configuration stays"))
        serve.send(SIGTERM)
        #expect(serve.exitStatus(within: 20) == 0)
    }
}
