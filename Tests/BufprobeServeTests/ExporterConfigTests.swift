import BufprobeServe
@testable import CheckEngine
import Foundation
import MediaIO
import PlaybackModel
import Testing

/// `--config.file`'s grammar: modules and their settings parsed once, strictly, every mistake one sentence
/// naming the module and the key.
@Suite("serve: the configuration file's modules")
struct ExporterConfigTests {
    @Test("a module's settings are read with check's duration grammar")
    func modulesAreRead() throws {
        let config = try ExporterConfig.parse("""
            modules:
              hls_live:
                timeout: 5s
                duration: 20
                max_startup: 2500ms
                policy: {start_threshold: 2s, resume_threshold: 4s, max_buffer: 30s}
                player: hlsjs
                headers: ["X-A: 1"]
                user_agent: u/1
                allow_targets: ['https://cdn\\.example\\.net/.*']
                cmcd: {mode: query, content_id: c1}
              bare:
            """)
        let module = try #require(config.modules["hls_live"])
        #expect(module.timeout == 5 && module.duration == 20 && module.maxStartup == 2.5)
        #expect(module.policy.startThreshold == 2 && module.policy.resumeThreshold == 4 && module.policy.forwardTarget == 30)
        #expect(module.player == .hlsjs && module.headers == ["X-A: 1"] && module.userAgent == "u/1")
        #expect(module.cmcd == .query && module.cmcdContentID == "c1")
        #expect(module.allowList?.refusal(for: "https://cdn.example.net/a.m3u8") == nil)
        #expect(module.allowList?.refusal(for: "https://other.example.net/a.m3u8") != nil)
        #expect(config.modules["bare"]?.policy == ProbeModule.builtIn.policy)
        #expect(config.module(named: nil)?.name == "default")
        #expect(config.module(named: "nope") == nil)
    }

    @Test("a module's min_realtime_factor and max_peak_over_bandwidth (none: no limit) reach the check's thresholds")
    func verdictRuleKeys() throws {
        let config = try ExporterConfig.parse("""
            modules:
              relaxed:
                min_realtime_factor: 0.5
                max_peak_over_bandwidth: none
                max_hole: none
                max_origin_faults: none
              wide:
                min_realtime_factor: 0
                max_peak_over_bandwidth: 25%
                max_hole: 2s
                max_origin_faults: 3
            """)
        var relaxed = CheckSettings()
        try #require(config.modules["relaxed"]).apply(to: &relaxed, share: 10, requestedTimeout: false, requestedDuration: false)
        #expect(relaxed.thresholds.minRealtimeFactor == 0.5 && relaxed.thresholds.maxPeakOverBandwidth == nil && relaxed.thresholds.maxHole == nil && relaxed.thresholds.maxOriginFaults == nil)
        var wide = CheckSettings()
        try #require(config.modules["wide"]).apply(to: &wide, share: 10, requestedTimeout: false, requestedDuration: false)
        #expect(wide.thresholds.minRealtimeFactor == 0 && wide.thresholds.maxPeakOverBandwidth == 0.25 && wide.thresholds.maxHole == 2 && wide.thresholds.maxOriginFaults == 3)
        #expect(try #require(config.modules["relaxed"]).summary.contains("max_peak_over_bandwidth: none"))
        var untouched = CheckSettings()
        ProbeModule.builtIn.apply(to: &untouched, share: 10, requestedTimeout: false, requestedDuration: false)
        #expect(untouched.thresholds == .default)
        #expect(throws: ExporterConfigError.self) { try ExporterConfig.parse("modules:\n  m:\n    max_peak_over_bandwidth: lots\n") }
    }

    @Test("a module's allow_targets bounds every request its checks make, not only the target")
    func moduleAllowListBoundsEveryRequest() throws {
        let config = try ExporterConfig.parse("""
            modules:
              cdn:
                allow_targets: ['http://127\\.0\\.0\\.1:8080/.*']
            """)
        let module = try #require(config.modules["cdn"])
        let open = try TargetPolicy(patterns: [])
        let policy = try #require(Exporter.requestPolicy(open, module: module))
        #expect(policy.refusal(for: "http://127.0.0.1:8080/seg1.ts") == nil)
        #expect(policy.refusal(for: "http://127.0.0.2:8080/seg1.ts")?.reason == .notAllowed)
        let narrow = try TargetPolicy(patterns: ["http://127\\.0\\.0\\.1:8080/a/.*"])
        let both = try #require(Exporter.requestPolicy(narrow, module: module))
        #expect(both.refusal(for: "http://127.0.0.1:8080/a/seg1.ts") == nil)
        #expect(both.refusal(for: "http://127.0.0.1:8080/b/seg1.ts")?.reason == .notAllowed)
        #expect(Exporter.requestPolicy(open, module: ProbeModule.builtIn) == nil)
    }

    @Test("a module's player preset is the base its policy keys override, in either order; a request's player= wins")
    func playerPresetIsTheModulesBase() throws {
        let config = try ExporterConfig.parse("""
            modules:
              browser:
                player: chromium
              fixed:
                policy: {resume_threshold: 1s}
                player: chromium
            """)
        let browser = try #require(config.modules["browser"])
        #expect(browser.policy == PlayerPreset.chromium.policy)
        #expect(browser.policy.resumeGrowth != .fixed)
        let fixed = try #require(config.modules["fixed"])
        #expect(fixed.policy.resumeThreshold == 1 && fixed.policy.resumeGrowth == .fixed)
        #expect(fixed.policy.startThreshold == PlayerPreset.chromium.policy.startThreshold)

        var settings = try ProbeRequest(query: "target=http://h/m.mp4", scrapeTimeout: nil).settings
        browser.apply(to: &settings, share: 9.5, requestedTimeout: false, requestedDuration: false)
        #expect(settings.player == .chromium && settings.policy == PlayerPreset.chromium.policy)
        var requested = try ProbeRequest(query: "target=http://h/m.mp4&player=mpv", scrapeTimeout: nil).settings
        browser.apply(to: &requested, share: 9.5, requestedTimeout: false, requestedDuration: false)
        #expect(requested.player == .mpv && requested.policy == PlayerPreset.mpv.policy)
    }

    @Test(arguments: [
        ("modules:\n  a:\n    timeot: 5s\n", "module a: unknown key 'timeot'"),
        ("modules:\n  a:\n    player: winamp\n", "module a: player: 'winamp' is not a player bufprobe knows"),
        ("modules:\n  a:\n    timeout: soon\n", "module a: timeout:"),
        ("modules:\n  a:\n    allow_targets: ['(']\n", "module a: allow_targets:"),
        ("modules:\n  a:\n    headers: [\"X: a\\r\\nEvil: 1\"]\n", "module a: headers must not contain control characters"),
        ("modules:\n  a:\n    headers: [\"no colon\"]\n", "module a: headers takes 'Name: value'"),
        ("modules:\n  a:\n    headers: [\": nameless\"]\n", "module a: headers takes 'Name: value'"),
        ("modules:\n  a:\n    policy: {start_threshold: 5s, resume_threshold: 1s}\n", "module a: policy:"),
        ("modules:\n  a:\n    cmcd: {content_id: x}\n", "module a: cmcd needs a mode"),
        ("modules:\n  a:\n    cmcd: {mode: carrier-pigeon}\n", "module a: cmcd.mode takes query or headers"),
        ("modules:\n  'a b':\n", "a module name must be"),
        ("module:\n  a:\n", "unknown key 'module' at the top"),
        ("modules: [a, b]\n", "modules must be a mapping"),
        ("modules:\n  a: {timeout: 5s\n", "it is not YAML"),
    ])
    func mistakesAreOneSentence(text: String, expected: String) {
        do {
            _ = try ExporterConfig.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.sentence.hasPrefix(expected), "\(error.sentence)")
            #expect(error.sentence.hasSuffix("."))
        }
    }

    @Test("a module's timeout and duration apply only where the request gave none, and never past the budget's share")
    func moduleDefaultsAreCapped() throws {
        var module = ProbeModule(name: "m")
        module.timeout = 5
        module.duration = 60
        var settings = try ProbeRequest(query: "target=http://a/b", scrapeTimeout: "10").settings
        module.apply(to: &settings, share: 9.5, requestedTimeout: false, requestedDuration: false)
        #expect(settings.timeout == 5 && settings.duration == 9.5)
        var asked = try ProbeRequest(query: "target=http://a/b&timeout=2s&duration=3s", scrapeTimeout: "10").settings
        module.apply(to: &asked, share: 9.5, requestedTimeout: true, requestedDuration: true)
        #expect(asked.timeout == 2 && asked.duration == 3)
    }

    @Test("the HTML page escapes what requests put in it")
    func pageIsEscaped() {
        let ring = RecentProbes()
        ring.add(target: "http://a/<script>\"x'&", module: "m", verdict: "pass", seconds: 1, log: "")
        let page = ExporterPages.index(recent: ring.entries, modules: ["default"])
        #expect(!page.contains("<script>"))
        #expect(page.contains("http://a/&lt;script&gt;&quot;x&apos;&amp;"))
        #expect(page.contains("href=\"/logs?id=1\""))
    }

    @Test("the ring keeps the last N probes, newest first, with ids counting on")
    func ringIsBounded() {
        let ring = RecentProbes(capacity: 3)
        for index in 1...5 { ring.add(target: "t\(index)", module: "m", verdict: "pass", seconds: 0, log: "log \(index)") }
        #expect(ring.entries.map(\.id) == [5, 4, 3])
        #expect(ring.entry(id: 2) == nil)
        #expect(ring.entry(id: 4)?.log == "log 4")
        let long = RecentProbes(capacity: 1)
        long.add(target: "t", module: "m", verdict: "pass", seconds: 0, log: String(repeating: "x", count: RecentProbes.longestLog * 2))
        #expect(long.entries[0].log.utf8.count < RecentProbes.longestLog + 16)
    }
}
