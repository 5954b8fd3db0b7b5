import BufprobeCommands
import Foundation
import MediaIO
import Testing
import TestSupport
import BufprobeOutput
import SimulateEngine

/// Runs `bufprobe simulate ... --json` and decodes the report.
private func simulate(_ arguments: [String]) throws -> (BufprobeProcess.Result, SimulateReport?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    return (result, try? JSONOutput.decoder().decode(SimulateReport.self, from: Data(result.stdout.utf8)))
}

/// The sizes of the files in `directory` whose names start with `prefix`.
private func bytes(in directory: URL, prefix: String) throws -> Int64 {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }
        .map { name in
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            return (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }.reduce(0, +)
}

/// A temporary directory, removed by the caller.
private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simdash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

@Suite("bufprobe simulate on DASH manifests")
struct SimulateDASHTests {
    @Test("FFmpeg's DASH (SegmentTemplate, SegmentTimeline, init segments): the video representations are the ladder, every byte counted once")
    func ffmpegLadder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CheckDASHTests.makeDASH(in: directory)
        let manifest = directory.appendingPathComponent("manifest.mpd").path
        let (run, decoded) = try simulate(
            [manifest, "--abr", "throughput", "--bandwidth", "4Mbit", "--latency", "20ms", "--no-audio-track"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        let abr = try #require(report.abr)
        #expect(report.source.kind == "dash")
        #expect(abr.variants.map(\.variant) == [0, 1])
        #expect(abr.variants.map(\.bitRate) == [100_000, 300_000])
        #expect(report.stallCount == 0 && report.ended)
        // Segments fetched whole once each, plus one initialization segment per representation used.
        let used = abr.variants.filter { $0.segments > 0 }
        #expect(abr.variants.map(\.segments).reduce(0, +) == 5)
        #expect(report.requests == 5 + used.count)
        #expect(used.count == 2, "throughput starts low and climbs: \(abr.switches)")
        #expect(report.bytesReceived == abr.variants.map(\.bytes).reduce(0, +))

        // One representation: exactly its files on disk (--no-audio-track: the audio set is not fetched).
        let (single, one) = try simulate([manifest, "--variant", "1", "--bandwidth", "4Mbit", "--no-audio-track"])
        #expect(single.status == 0, "\(single.stderr)")
        let expected = try bytes(in: directory, prefix: "chunk-stream1-") + bytes(in: directory, prefix: "init-stream1.")
        #expect(one?.bytesReceived == expected)
        #expect(one?.requests == 6)
        #expect(one?.source.description.contains("representation 1 (300 kbit/s)") == true)
    }

    @Test("--abr fixed over an MPD plays --variant's representation exactly as without --abr")
    func fixedMatches() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CheckDASHTests.makeDASH(in: directory)
        let manifest = directory.appendingPathComponent("manifest.mpd").path
        for variant in ["0", "1"] {
            let common = [manifest, "--bandwidth", "250kbit", "--latency", "80ms", "--variant", variant]
            let (_, plain) = try simulate(common)
            let (run, adaptive) = try simulate(common + ["--abr", "fixed"])
            #expect(run.status == 0, "\(run.stderr)")
            var stripped = try #require(adaptive)
            let original = try #require(plain)
            #expect(stripped.abr?.switchCount == 0)
            stripped.abr = nil
            stripped.source = original.source
            // The log names the ladder's variant only over a ladder; the requests are the same.
            #expect(stripped.requestLog.filter { $0.track == "video" }.allSatisfy { $0.variant == Int(variant) })
            #expect(stripped.requestLog.map(\.bytes) == original.requestLog.map(\.bytes))
            stripped.requestLog = original.requestLog
            #expect(stripped == original)
        }
    }

    @Test("the three ways FFmpeg and packagers address one file (SegmentList ranges, SegmentBase sidx) give the same segments")
    func singleFileAddressing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = BufprobeProcess.sample("h264-aac.mp4")
        let encode = ["-c:v", "libx264", "-threads", "1", "-b:v", "200k", "-force_key_frames", "expr:gte(t,n_forced*2)"]
        // FFmpeg's -single_file: a SegmentList of byte ranges in one file.
        _ = try Samples.run(
            "ffmpeg", ["-v", "error", "-i", sample, "-map", "0:v"] + encode
                + ["-seg_duration", "2", "-single_file", "1", "-f", "dash", directory.appendingPathComponent("list.mpd").path])
        // A fragmented MP4 with a global sidx, addressed by SegmentBase (with and without indexRange).
        let file = directory.appendingPathComponent("indexed.mp4").path
        _ = try Samples.run(
            "ffmpeg", ["-v", "error", "-i", sample, "-map", "0:v"] + encode
                + ["-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx", "-f", "mp4", file])
        let layout = try MP4BoxLayout.scan(path: file)
        let sidx = try #require(layout.boxes.first { $0.type == "sidx" })
        for (name, indexRange) in [("based.mpd", " indexRange=\"\(sidx.offset)-\(sidx.end - 1)\""), ("found.mpd", "")] {
            let text = """
                <?xml version="1.0"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S"><Period>
                <AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="200000"><BaseURL>indexed.mp4</BaseURL>
                <SegmentBase\(indexRange)><Initialization range="0-\(sidx.offset - 1)"/></SegmentBase>
                </Representation></AdaptationSet></Period></MPD>
                """
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var reports: [SimulateReport] = []
        for name in ["list.mpd", "based.mpd", "found.mpd"] {
            let (run, report) = try simulate([directory.appendingPathComponent(name).path, "--bandwidth", "1Mbit"])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            reports.append(try #require(report))
        }
        #expect(reports.map(\.source.units) == [5, 5, 5])
        #expect(reports.allSatisfy { $0.requests == 6 && $0.ended && $0.source.duration == 10 })
        // Based: the file less its trailing mfra, the index read with the initialization.
        let mfra = layout.boxes.first { $0.type == "mfra" }?.size ?? 0
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
        #expect(reports[1].bytesReceived == size - mfra)
        #expect(reports[2].bytesReceived == reports[1].bytesReceived)
    }

    @Test(
        "remote manifests and remote segments are refused with a sentence",
        arguments: [
            (["https://cdn.example.net/vod/manifest.mpd", "--abr", "bola"], 64, "is a remote DASH manifest"),
            (["http://127.0.0.1:9/m.mpd?token=1"], 64, "is a remote DASH manifest"),
        ])
    func remote(arguments: [String], status: Int32, message: String) throws {
        let run = try BufprobeProcess.run(["simulate"] + arguments + ["--bandwidth", "1Mbit"])
        #expect(run.status == status)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("a manifest whose segments are URLs, or that is not usable, is refused with exit 2, naming it")
    func unusable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let remote = directory.appendingPathComponent("remote.mpd").path
        try """
            <MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>https://cdn.example.net/</BaseURL><Period>
            <AdaptationSet contentType="video"><Representation id="v" bandwidth="1000">
            <SegmentTemplate duration="2" media="$Number$.m4s"/></Representation></AdaptationSet></Period></MPD>
            """.write(toFile: remote, atomically: true, encoding: .utf8)
        let run = try BufprobeProcess.run(["simulate", remote, "--abr", "throughput", "--bandwidth", "1Mbit"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error: the DASH manifest \(remote) lists https://cdn.example.net/1.m4s, a URL"), "\(run.stderr)")
        let broken = directory.appendingPathComponent("broken.mpd").path
        try "<MPD mediaPresentationDuration='PT4S'><Period><AdaptationSet><Representation id='v' bandwidth='1'><SegmentTemplate media='$Number%0999d$' duration='1'/></Representation></AdaptationSet></Period></MPD>"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let bad = try BufprobeProcess.run(["simulate", broken, "--bandwidth", "1Mbit"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("%0Nd with N up to 20"), "\(bad.stderr)")
        let variant = try BufprobeProcess.run(["simulate", remote, "--variant", "3", "--bandwidth", "1Mbit"])
        #expect(variant.status == 64)
        #expect(variant.stderr.contains("has 1 video representations (0 to 0); --variant 3 is not one of them"), "\(variant.stderr)")
    }
}
