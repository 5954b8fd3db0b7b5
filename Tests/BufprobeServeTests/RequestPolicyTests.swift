import Foundation
import Testing
import TestSupport
import BufprobeOutput

/// `Tests/BufprobeCommandsTests/Fixtures/origin_server.py` on `host`: an origin whose playlists,
/// manifests and redirects lead to another server, and which counts every request it receives.
final class OriginServer {
    let host: String
    private let server: FixtureServer
    /// The port it listens on.
    var port: Int { server.port }

    init(host: String) throws {
        self.host = host
        server = try FixtureServer(script: "origin_server.py", arguments: ["--root", CheckServers.samples, "--host", host])
    }

    /// `http://host:port/path`.
    func url(_ path: String) -> String { "http://\(host):\(port)/\(path)" }

    /// The paths requested so far.
    func requests() throws -> [String] {
        try HTTPClient.get(port: port, "/requests", timeout: 10, host: host).body.split(separator: "\n").map(String.init)
    }
}

/// Issue 23: with `--allow-target` naming one origin, nothing a target on it leads to reaches another
/// host or port — not a redirect, a variant (played or not, or validated with `all_variants=true`), a
/// rendition, a segment, a key, an init section, a DASH `BaseURL`, an absolute template URL or a DASH
/// segment's redirect. The refused URL is a warning and counts in
/// `bufprobe_refused_requests{reason="not_allowed"}`; a DASH target whose URLs are all allowed is checked.
@Suite("serve: every outbound request is checked", .serialized)
struct RequestPolicyTests {
    @Test(
        "a target on the allowed origin makes no request to another host (127.0.0.2) or another port",
        arguments: [
            ("redirect/media.m3u8", ""),
            ("variant-best/master.m3u8", ""),
            ("variant-low/master.m3u8", ""),
            ("variant-low/master.m3u8", "&all_variants=true"),
            ("rendition/master.m3u8", ""),
            ("segments/index.m3u8", ""),
            ("key/index.m3u8", ""),
            ("map/index.m3u8", ""),
            ("dash-base/manifest.mpd", ""),
            ("dash-template/manifest.mpd", ""),
            ("dash-redirect/manifest.mpd", ""),
        ])
    func nothingReachesAnotherServer(path: String, parameters: String) throws {
        let allowed = try OriginServer(host: "127.0.0.1")
        let otherHost = try OriginServer(host: "127.0.0.2")
        let otherPort = try OriginServer(host: "127.0.0.1")
        let serve = try ServeProcess(["--allow-target", #"http://127\.0\.0\.1:\#(allowed.port)/.*"#])
        for other in [otherHost, otherPort] {
            let target = allowed.url("to/\(other.host)/\(other.port)/\(path)")
            let answer = try serve.get(
                "/probe?target=\(HTTPClient.encoded(target))&duration=3s&timeout=3s\(parameters)",
                headers: ["X-Prometheus-Scrape-Timeout-Seconds": "15"])
            #expect(answer.status == 200, "\(answer.body)")
            let metrics = try Exposition(answer.body)
            #expect((metrics.value("bufprobe_refused_requests", ["reason": "not_allowed"]) ?? 0) >= 1, "\(target)\n\(answer.body)")
            #expect(try allowed.requests().contains { $0.hasPrefix("/to/") }, "the allowed origin was asked")
            #expect(try other.requests() == [], "\(target) led to \(other.url(""))")
        }
    }

    @Test("a DASH target whose every URL is allowed is checked under --allow-target: verdict pass, packets read, nothing refused")
    func allowedDASHChecked() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-serve-dash")
        defer { try? FileManager.default.removeItem(at: directory) }
        try DASHSample.make(in: directory)
        let server = try NginxServer(extraRoots: ["dash": directory])
        let serve = try ServeProcess(["--allow-target", #"http://127\.0\.0\.1:\#(server.port)/.*"#])
        let target = server.url("dash/manifest.mpd")
        let answer = try serve.get(
            "/probe?target=\(HTTPClient.encoded(target))&duration=3s",
            headers: ["X-Prometheus-Scrape-Timeout-Seconds": "20"])
        #expect(answer.status == 200, "\(answer.body)")
        let metrics = try Exposition(answer.body)
        #expect(metrics.value("bufprobe_verdict", ["verdict": "pass"]) == 1, "\(answer.body)\n\(serve.stderr)")
        #expect((metrics.value("bufprobe_received_bytes") ?? 0) > 0, "\(answer.body)")
        #expect((metrics.value("bufprobe_played_seconds") ?? 0) > 0, "\(answer.body)")
        #expect(metrics.value("bufprobe_refused_requests", ["reason": "not_allowed"]) == 0, "\(answer.body)")
        // The segments were fetched (by FFmpeg's DASH demuxer, each request watched), not only the manifest.
        #expect(server.requestedPaths().contains { $0.contains("/dash/chunk-stream0-") }, "\(server.requestedPaths())")
        // The manifest bufprobe read to check it is the one FFmpeg parsed (issue 30): requested once, and
        // FFmpeg's own requests still carry the user agent it would have kept from reading it.
        #expect(server.requestedPaths().filter { $0.hasSuffix("/dash/manifest.mpd") }.count == 1, "\(server.requestedPaths())")
        let segments = server.accessLogLines().filter { $0.contains("/dash/chunk-stream0-") }
        #expect(!segments.isEmpty && segments.allSatisfy { $0.hasSuffix("\"bufprobe/\(BufprobeVersion.string)\"") }, "\(segments)")
    }

    @Test(
        "a DASH manifest that leads off the allow-list, or is live, fails with a sentence before FFmpeg opens it: bufprobe's own read is its only request",
        arguments: [
            ("dash-template", "its DASH manifest leads to http://127.0.0.2:"),
            ("dash-base", "its DASH manifest leads to http://127.0.0.2:"),
            ("dash-live", "is a live (dynamic) DASH manifest, which a request policy"),
        ])
    func dashRefusedBeforeFFmpeg(path: String, sentence: String) throws {
        let allowed = try OriginServer(host: "127.0.0.1")
        let other = try OriginServer(host: "127.0.0.2")
        let serve = try ServeProcess(["--allow-target", #"http://127\.0\.0\.1:\#(allowed.port)/.*"#])
        let manifest = "to/\(other.host)/\(other.port)/\(path)/manifest.mpd"
        let answer = try serve.get(
            "/probe?target=\(HTTPClient.encoded(allowed.url(manifest)))&duration=3s&timeout=3s&debug=true",
            headers: ["X-Prometheus-Scrape-Timeout-Seconds": "15"])
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.body.contains(sentence), "\(answer.body)")
        #expect(answer.body.contains("bufprobe_probe_success 0"), "\(answer.body)")
        if path != "dash-live" {
            // The warning names the refused URL, and the metric counts it.
            #expect(answer.body.contains("\n- \(allowed.url(manifest)) leads to http://127.0.0.2:\(other.port)/"), "\(answer.body)")
            #expect(answer.body.contains(#"bufprobe_refused_requests{reason="not_allowed"} 1"#), "\(answer.body)")
        }
        #expect(try allowed.requests() == ["/\(manifest)"], "only bufprobe's own read of the manifest")
        #expect(try other.requests() == [])
    }

    @Test("a redirect to an allowed URL is followed through the gate and plays")
    func allowedRedirectFollowed() throws {
        let allowed = try OriginServer(host: "127.0.0.1")
        let serve = try ServeProcess(["--allow-target", #"http://127\.0\.0\.1:\#(allowed.port)/.*"#])
        // The redirect leads back to the same origin, to a playlist that plays.
        let target = allowed.url("to/127.0.0.1/\(allowed.port)/redirect/local.m3u8")
        let answer = try serve.get("/probe?target=\(HTTPClient.encoded(target))&duration=2s")
        let metrics = try Exposition(answer.body)
        #expect(metrics.value("bufprobe_refused_requests", ["reason": "not_allowed"]) == 0, "\(answer.body)")
        let requests = try allowed.requests()
        #expect(requests.contains("/to/127.0.0.1/\(allowed.port)/redirected/local.m3u8"))
        #expect(metrics.value("bufprobe_probe_success") == 1, "\(answer.body)")
        // The segments resolve against where the playlist came from (its last redirect), as FFmpeg resolves
        // them after its own read: bufprobe read it and handed FFmpeg the location with the bytes.
        #expect(requests.contains { $0.contains("/redirected/seg") }, "\(requests)")
        #expect(!requests.contains { $0.contains("/redirect/seg") }, "\(requests)")
    }

    @Test("--deny-private refuses a loopback target and its redirects: nothing is requested")
    func denyPrivate() throws {
        let origin = try OriginServer(host: "127.0.0.2")
        let serve = try ServeProcess(["--deny-private"])
        #expect(serve.stderr.contains("--deny-private"))
        for target in [origin.url("to/127.0.0.2/\(origin.port)/segments/index.m3u8"), "http://localhost:\(origin.port)/x.m3u8"] {
            let answer = try serve.get("/probe?target=\(HTTPClient.encoded(target))&duration=2s")
            let metrics = try Exposition(answer.body)
            #expect(metrics.value("bufprobe_probe_success") == 0)
            #expect(metrics.value("bufprobe_refused_requests", ["reason": "private_address"]) == 1, "\(answer.body)")
        }
        #expect(try origin.requests() == [])
    }
}
