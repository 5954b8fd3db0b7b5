import BufprobeServe
@testable import CheckEngine
import Testing

/// Which targets the exporter probes (`--allow-target`), so that it is neither an open proxy nor a way to
/// read the server's files.
@Suite("serve: target allow-list")
struct TargetPolicyTests {
    @Test(
        "targets allowed and refused",
        arguments: [
            // patterns, target, allowed
            ([], "http://cdn.example/a.m3u8", true),
            ([], "https://cdn.example/a.m3u8", true),
            ([], "hls+http://cdn.example/a.m3u8", true),
            ([], "rtmp://live.example/app/key", true),
            ([], "/etc/passwd", false),
            ([], "file:/etc/passwd", false),
            ([], "-", false),
            ([], "pipe:0", false),
            ([], "concat:/a.ts|/b.ts", false),
            ([], "subfile,,start,0,end,10,,:/etc/passwd", false),
            ([], "data:video/mp2t;base64,AAAA", false),
            ([], "crypto:file:/etc/passwd", false),
            ([], "unix:/run/x.sock", false),
            ([#"https://cdn\.example/.*"#], "https://cdn.example/live/a.m3u8", true),
            ([#"https://cdn\.example/.*"#], "https://cdn.example.evil/a.m3u8", false),
            ([#"https://cdn\.example/.*"#], "http://other/a.m3u8?https://cdn.example/", false),
            ([#"cdn\.example"#], "https://cdn.example/a.m3u8", false),
            ([#"https://a/.*"#, #"https://b/.*"#], "https://b/x", true),
            ([".*"], "file:/etc/passwd", false),
            ([".*"], "/etc/passwd", false),
            (["file:/srv/media/.*"], "file:/srv/media/a.mp4", true),
            (["^file:/srv/media/.*"], "file:/srv/media/a.mp4", true),
            (["file:/srv/media/.*"], "file:/srv/media/../../etc/passwd", false),
            (["file:/srv/media/.*"], "file:/srv/media/./a.mp4", false),
            (["file:/srv/media/.*"], "/srv/media/a.mp4", false),
            (["file:/srv/media/.*"], "https://cdn.example/a.m3u8", false),
            (["file:.*"], "file:relative.mp4", false),
        ] as [([String], String, Bool)])
    func decision(patterns: [String], target: String, allowed: Bool) throws {
        let policy = try TargetPolicy(patterns: patterns)
        let refusal = policy.refusal(for: target)
        #expect((refusal == nil) == allowed, "\(refusal ?? "allowed")")
        if let refusal { #expect(refusal.hasSuffix(".") && refusal.hasPrefix(target)) }
    }

    @Test("a pattern that is not a regular expression is a usage error naming it")
    func badPattern() {
        #expect(throws: TargetPolicy.PatternError.self) { try TargetPolicy(patterns: ["https://(unclosed"]) }
    }

    @Test("without --allow-target the startup line says every network target is allowed")
    func summary() throws {
        #expect(try TargetPolicy(patterns: []).summary.contains("every network target is allowed"))
        #expect(try TargetPolicy(patterns: ["https://a/.*"]).summary.contains("local files are refused"))
    }
}
