import BufprobeCommands
import Foundation
import PlaybackModel
import SimulateEngine
import Testing
import TestSupport

/// A DASH ladder as `ffmpeg -f dash -seg_duration 6` writes it (`minBufferTime="PT12.0S"`, twice the
/// segment duration): 36 s of 320x180 video at 300k and 900k with a keyframe every 6 s, and an AAC audio
/// set at 48 kHz; and the same manifest with `minBufferTime` 30 s. Made once into `.build/test-cache`.
@Suite struct SimulateMinBufferTimeTests {
    @Test(
        "every preset plays a DASH manifest whose minBufferTime (12 s, 30 s) is above Shaka's 10 s buffering goal, at every rate",
        arguments: [12, 30])
    func everyPresetPlays(minBufferTime: Int) throws {
        let manifest = try Self.manifest(minBufferTime: minBufferTime)
        for preset in PlayerPreset.allCases {
            for rate in preset == .shaka ? ["300k", "1200k", "5000k"] : ["1200k"] {
                let run = try BufprobeProcess.run(["simulate", manifest, "--player", preset.rawValue, "--bandwidth", rate, "--json"])
                #expect(run.status == 0, "\(preset) at \(rate): \(run.stderr)")
                let report = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
                #expect(report?["ended"] as? Bool == true, "\(preset) at \(rate) did not play to the end")
                #expect(abs((report?["played"] as? Double ?? 0) - 36) < 0.1, "\(preset) at \(rate): \(report?["played"] ?? "-")")
            }
        }
    }

    @Test("Shaka's goals follow minBufferTime: it starts and resumes at minBufferTime plus an AAC frame, and loads as far ahead")
    func shakaPolicyFromManifest() throws {
        let frame = 1024 / 48000.0
        for minBufferTime in [12, 30] {
            let run = try BufprobeProcess.run([
                "simulate", try Self.manifest(minBufferTime: minBufferTime), "--player", "shaka", "--bandwidth", "5000k", "--json",
            ])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let policy = try #require(report["policy"] as? [String: Any])
            let goal = Double(minBufferTime) + frame
            #expect(abs((policy["start_threshold"] as? Double ?? 0) - goal) < 1e-6)
            #expect(abs((policy["resume_threshold"] as? Double ?? 0) - goal) < 1e-6)
            #expect(abs((policy["max_buffer"] as? Double ?? 0) - goal) < 1e-6)
            // Playback starts once the goal is buffered (or the whole 36 s is): at 5 Mbit/s, after at least
            // the goal's worth of the top rung has crossed the link.
            let needed = min(goal, 36) * 900_000 / 5_000_000
            #expect((report["startup_delay"] as? Double ?? 0) >= needed, "\(report["startup_delay"] ?? "-")")
        }
    }

    @Test("a user's forward target below the manifest's minBufferTime is a usage error that names where the other value came from")
    func userValueAgainstDerivedGoal() throws {
        let run = try BufprobeProcess.run([
            "simulate", try Self.manifest(minBufferTime: 12), "--player", "shaka", "--bandwidth", "1200k", "--max-buffer", "5s",
        ])
        #expect(run.status == 64)
        #expect(run.stderr.contains(
            "error: the buffer policy is not usable: the forward buffer target (5 s) is below the resume threshold (12.02 s, Shaka's rebuffering goal raised to the manifest's minBufferTime); make it at least as large."),
            "\(run.stderr)")
    }

    @Test("a policy a preset derives from the media that cannot play is its own exit code, not a usage error")
    func derivedPolicyExitCode() throws {
        var broken = PlayerPreset.shaka.policy
        broken.forwardTarget = 1
        #expect(throws: (any Error).self) { try SimulationPlan.checkDerived(broken, player: .shaka) }
        do {
            try SimulationPlan.checkDerived(broken, player: .shaka)
        } catch {
            #expect(error.exitCode == SimulationPlan.derivedPolicyExitCode && error.exitCode != 64)
            #expect(error.sentence.hasPrefix("the shaka player's buffer policy for this media cannot play it: the forward buffer target (1 s)"))
        }
        for preset in PlayerPreset.allCases {
            for minBufferTime in [0.5, 12, 30, 3600] {
                let hints = PlayerPreset.ManifestHints(minBufferTime: minBufferTime, audioFrame: 1024 / 48000.0)
                #expect(throws: Never.self) { try SimulationPlan.checkDerived(preset.policy(for: hints), player: preset) }
            }
        }
    }

    /// The ladder's manifest with `minBufferTime` as given (12 s: as ffmpeg wrote it).
    static func manifest(minBufferTime: Int) throws -> String {
        let directory = TestCache.folder.appendingPathComponent("dash-6s-ladder")
        let written = directory.appendingPathComponent("manifest.mpd")
        try TestCache.exclusively("dash-6s-ladder") {
            guard !FileManager.default.fileExists(atPath: written.path) else { return }
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let partial = directory.appendingPathComponent("partial.mpd")
            _ = try Samples.run("ffmpeg", [
                "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=36",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=36",
                "-map", "0:v", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-threads", "1", "-preset", "veryfast",
                "-b:v:0", "300k", "-b:v:1", "900k", "-g", "150", "-keyint_min", "150", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", "-f", "dash", "-seg_duration", "6",
                "-adaptation_sets", "id=0,streams=v id=1,streams=a", partial.path,
            ])
            try FileManager.default.moveItem(at: partial, to: written)
        }
        let text = try String(contentsOf: written, encoding: .utf8)
        #expect(text.contains("minBufferTime=\"PT12.0S\""), "ffmpeg's manifest: \(text.prefix(400))")
        guard minBufferTime != 12 else { return written.path }
        let edited = directory.appendingPathComponent("min-\(minBufferTime).mpd")
        try text.replacingOccurrences(of: "minBufferTime=\"PT12.0S\"", with: "minBufferTime=\"PT\(minBufferTime).0S\"")
            .write(to: edited, atomically: true, encoding: .utf8)
        return edited.path
    }
}
