import BufprobeCommands
@testable import CheckEngine
import Foundation
import MediaIO
import Testing
import TestSupport
import BufprobeOutput

/// CMCD (CTA-5004) as bufprobe formats it, and the `User-Agent` and CMCD a loopback server received from
/// a real `bufprobe check` (the server records every request: `Fixtures/recording_server.py`).
@Suite("check: User-Agent and CMCD on the wire")
struct CMCDTests {
    @Test("keys are sorted, strings quoted and escaped, true booleans bare, bl rounded to 100 ms")
    func keysFollowTheSpecification() {
        let cmcd = CMCD(mode: .query, sessionID: "s-1", contentID: #"a"b\c"#)
        let request = CMCD.Request(objectType: .video, bitRateKbps: 3200, bufferMilliseconds: 21_349, startup: true)
        #expect(cmcd.pairs(for: request) == [#"bl=21300"#, "br=3200", #"cid="a\"b\\c""#, "ot=v", #"sid="s-1""#, "su"])
        #expect(CMCD(mode: .query, sessionID: "x").pairs(for: CMCD.Request()) == [#"sid="x""#])
        let long = CMCD(mode: .headers, sessionID: String(repeating: "z", count: 100))
        #expect(long.pairs(for: CMCD.Request()) == ["sid=\"" + String(repeating: "z", count: 64) + "\""])
    }

    @Test("headers are sharded into CMCD-Object, CMCD-Request and CMCD-Session; empty shards are left out")
    func headersAreSharded() {
        let cmcd = CMCD(mode: .headers, sessionID: "s", contentID: "c")
        #expect(
            cmcd.headers(for: CMCD.Request(objectType: .manifest, bitRateKbps: 500, bufferMilliseconds: 0, startup: true)) == [
                "CMCD-Object: br=500,ot=m", "CMCD-Request: bl=0,su", #"CMCD-Session: cid="c",sid="s""#,
            ])
        #expect(cmcd.sessionHeaders == [#"CMCD-Session: cid="c",sid="s""#])
        #expect(CMCD(mode: .query, sessionID: "s").sessionHeaders.isEmpty)
    }

    @Test("query mode appends one percent-encoded CMCD argument, before a fragment, after an existing query")
    func queryIsAppended() {
        let cmcd = CMCD(mode: .query, sessionID: "s")
        let request = CMCD.Request(objectType: .manifest, startup: true)
        #expect(cmcd.decorated("http://h/a.m3u8", request: request) == "http://h/a.m3u8?CMCD=ot%3Dm%2Csid%3D%22s%22%2Csu")
        #expect(cmcd.decorated("http://h/a.m3u8?t=1#x", request: request) == "http://h/a.m3u8?t=1&CMCD=ot%3Dm%2Csid%3D%22s%22%2Csu#x")
        #expect(CMCD.ObjectType(guessingFrom: "http://h/live.MPD?x=1") == .manifest)
        #expect(CMCD.ObjectType(guessingFrom: "http://h/movie.mp4") == .muxed)
    }

    private static func requests(_ server: FaultServer) throws -> [[String: Any]] {
        // curl: Foundation's Data(contentsOf:) reads no http URL on Linux.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-m", "10", server.url("__requests")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("every request of a check (master or media playlist, segments) names bufprobe and its version; --user-agent replaces it",
          arguments: ["hls/master.m3u8", "hls/low/index.m3u8"])
    func everyRequestNamesBufprobe(input: String) throws {
        let server = try FaultServer(script: "recording_server.py")
        // The input's first read is bufprobe's, handed to FFmpeg: its later requests keep the user agent.
        let result = try BufprobeProcess.run(["check", "--duration", "2s", server.url(input)])
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try Self.requests(server)
        #expect(seen.count >= 2, "\(seen)")
        #expect(seen.filter { ($0["path"] as? String)?.hasSuffix(input) == true }.count == 1, "the input was requested more than once: \(seen)")
        #expect(seen.contains { ($0["path"] as? String)?.hasSuffix(".ts") == true }, "\(seen)")
        for request in seen {
            #expect(request["user_agent"] as? String == "bufprobe/\(BufprobeVersion.string)", "\(request)")
        }
        let other = try FaultServer(script: "recording_server.py")
        _ = try BufprobeProcess.run(["check", "--duration", "1s", "--user-agent", "probe-x/2", other.url(input)])
        let replaced = try Self.requests(other)
        #expect(!replaced.isEmpty && replaced.allSatisfy { $0["user_agent"] as? String == "probe-x/2" }, "\(replaced)")
    }

    @Test("--cmcd headers sends CMCD-Session with one sid and the cid on every request, nothing without --cmcd")
    func headerModeOnEveryRequest() throws {
        let server = try FaultServer(script: "recording_server.py")
        let result = try BufprobeProcess.run(["check", "--duration", "2s", "--cmcd", "headers", "--cmcd-content-id", "live-1", server.url("hls/master.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try Self.requests(server)
        #expect(seen.count >= 3 && seen.contains { ($0["path"] as? String)?.hasSuffix(".ts") == true }, "\(seen)")
        var sessions: Set<String> = []
        for request in seen {
            let headers = request["cmcd"] as? [String: String] ?? [:]
            let session = headers.first { $0.key.lowercased() == "cmcd-session" }?.value ?? ""
            #expect(session.hasPrefix(#"cid="live-1",sid=""#), "\(request)")
            sessions.insert(session)
        }
        #expect(sessions.count == 1, "one session id for the whole check: \(sessions)")

        let plain = try FaultServer(script: "recording_server.py")
        _ = try BufprobeProcess.run(["check", "--duration", "1s", plain.url("hls/master.m3u8")])
        #expect(try Self.requests(plain).allSatisfy { ($0["cmcd"] as? [String: String] ?? [:]).isEmpty })
    }

    @Test("--cmcd query puts su, ot=m and the sid on the first request, and each later request its own keys (ot=m on playlists, br and bl on segments)")
    func queryModeOnEveryRequest() throws {
        let server = try FaultServer(script: "recording_server.py")
        let result = try BufprobeProcess.run(["check", "--duration", "1s", "--cmcd", "query", server.url("hls/master.m3u8")])
        #expect(result.status == 0, "\(result.stderr)")
        let first = try #require(try Self.requests(server).first?["path"] as? String)
        let query = try #require(URLComponents(string: first)?.queryItems?.first { $0.name == "CMCD" }?.value)
        let keys = query.split(separator: ",").map { String($0.prefix { $0 != "=" }) }
        #expect(keys == ["ot", "sid", "su"], "\(query)")
        #expect(query.hasPrefix("ot=m,sid=\""))
        // Every later request (playlists, reloads, segments) gets its own keys through the resource gate.
        let rest = try Self.requests(server).dropFirst().compactMap { $0["path"] as? String }
        #expect(!rest.isEmpty)
        func sentKeys(_ path: String) -> [String: String] {
            let value = URLComponents(string: path)?.queryItems?.first { $0.name == "CMCD" }?.value ?? ""
            var keys: [String: String] = [:]
            for pair in value.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                keys[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return keys
        }
        for path in rest {
            let sent = sentKeys(path)
            #expect(sent["sid"] != nil, "\(path)")
            if path.contains(".m3u8") { #expect(sent["ot"] == "m", "\(path)") }
        }
        let segments = rest.filter { !$0.contains(".m3u8") }
        #expect(!segments.isEmpty)
        #expect(segments.contains { sentKeys($0)["br"] != nil && sentKeys($0)["bl"] != nil }, "\(segments)")
    }

    @Test("per-request keys: ot=m on playlists, ot=k on keys, br (kbit/s) and bl (rounded to 100 ms) on media, su until playing")
    func perRequestKeys() {
        var requests = CMCDRequests(CMCD(mode: .query, sessionID: "s"))
        // Nothing observed yet: starting up, no buffer or bit rate known.
        #expect(requests.request(for: "http://h/live/index.m3u8?t=1") == CMCD.Request(objectType: .manifest, startup: true))
        #expect(requests.request(for: "http://h/seg1.ts") == CMCD.Request(startup: true))
        requests.observe(bufferedAhead: 12.3456, startingUp: false, bitRate: 1_499_600)
        #expect(requests.request(for: "http://h/seg2.ts") == CMCD.Request(bitRateKbps: 1_500, bufferMilliseconds: 12_346))
        #expect(requests.request(for: "http://h/k.KEY") == CMCD.Request(objectType: .key))
        #expect(requests.decoration(for: "http://h/seg2.ts") == RequestDecoration(query: "CMCD=bl%3D12300%2Cbr%3D1500%2Csid%3D%22s%22"))
        // Broken numbers are left out, never trapped on.
        requests.observe(bufferedAhead: .infinity, startingUp: true, bitRate: -5)
        #expect(requests.request(for: "http://h/seg3.ts") == CMCD.Request(startup: true))
        requests.observe(bufferedAhead: .nan, startingUp: true, bitRate: nil)
        #expect(requests.request(for: "http://h/seg3.ts") == CMCD.Request(startup: true))

        var headers = CMCDRequests(CMCD(mode: .headers, sessionID: "s"))
        headers.observe(bufferedAhead: 4.04, startingUp: false, bitRate: 800_000)
        // CMCD-Session is already among the check's own headers.
        #expect(headers.decoration(for: "http://h/seg.ts") == RequestDecoration(headers: ["CMCD-Object: br=800", "CMCD-Request: bl=4000"]))
        #expect(headers.decoration(for: "http://h/a.m3u8") == RequestDecoration(headers: ["CMCD-Object: ot=m"]))
    }

    @Test("a decoration's query argument replaces one of the same name and goes before a fragment")
    func decorationQuery() {
        let decoration = RequestDecoration(query: "CMCD=bl%3D100")
        #expect(decoration.decorated("http://h/s.ts") == "http://h/s.ts?CMCD=bl%3D100")
        #expect(decoration.decorated("http://h/s.ts?a=1&CMCD=su&b=2#f") == "http://h/s.ts?a=1&b=2&CMCD=bl%3D100#f")
        #expect(RequestDecoration().decorated("http://h/s.ts?x") == "http://h/s.ts?x")
    }

    @Test("the resource gate decorates every request after the first: the media playlist with ot=m, each segment with br and bl")
    func gateDecoratesEveryRequest() throws {
        for mode in CMCD.Mode.allCases {
            let server = try FaultServer(script: "recording_server.py")
            var observed = CMCDRequests(CMCD(mode: mode, sessionID: "s"))
            observed.observe(bufferedAhead: 2.5, startingUp: false, bitRate: 300_000)
            let requests = observed
            let url = server.url("hls/master.m3u8")
            let input = try MediaInput(
                url: url, interrupter: Interrupter(timeout: .seconds(10), input: url),
                decorateRequest: { requests.decoration(for: $0) })
            var packets = 0
            while packets < 2_000, try input.readPacket() != nil { packets += 1 }
            let seen = try Self.requests(server)
            let segments = seen.filter { (($0["path"] as? String) ?? "").contains(".ts") }
            let playlists = seen.dropFirst().filter { (($0["path"] as? String) ?? "").contains(".m3u8") }
            #expect(segments.count >= 2 && !playlists.isEmpty, "\(mode): \(seen)")
            func keys(_ request: [String: Any]) -> String {
                let cmcd = request["cmcd"] as? [String: String] ?? [:]
                switch mode {
                case .headers: return cmcd.sorted { $0.key < $1.key }.map { "\($0.key.lowercased()): \($0.value)" }.joined(separator: "; ")
                case .query:
                    let path = request["path"] as? String ?? ""
                    return URLComponents(string: path)?.queryItems?.first { $0.name == "CMCD" }?.value ?? ""
                }
            }
            // The first request is the caller's to decorate (CheckSettings does), so the gate leaves it.
            #expect(keys(seen[0]) == "", "\(mode): \(seen[0])")
            for playlist in playlists {
                #expect(keys(playlist) == (mode == .query ? #"ot=m,sid="s""# : "cmcd-object: ot=m"), "\(mode): \(playlist)")
            }
            for segment in segments {
                #expect(keys(segment) == (mode == .query ? #"bl=2500,br=300,sid="s""# : "cmcd-object: br=300; cmcd-request: bl=2500"), "\(mode): \(segment)")
            }
        }
    }
}
