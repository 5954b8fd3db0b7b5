import BufprobeCommands
@testable import CheckEngine
import BufprobeOutput
import Foundation
import Testing
import TestSupport
import SimulateEngine

/// Runs `bufprobe simulate ... --json` and decodes the report.
private func simulate(_ arguments: [String]) throws -> (BufprobeProcess.Result, SimulateReport?) {
    let result = try BufprobeProcess.run(["simulate"] + arguments + ["--json"])
    return (result, try? JSONOutput.decoder().decode(SimulateReport.self, from: Data(result.stdout.utf8)))
}

/// The size of the file `name` in `directory`.
private func size(_ directory: URL, _ name: String) throws -> Int64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
    return (attributes[.size] as? NSNumber)?.int64Value ?? -1
}

/// A two-variant HLS ladder (100k/300k video) with its audio in an `EXT-X-MEDIA` rendition of its own.
private func makeHLSWithAudio(in directory: URL) throws {
    _ = try Samples.run(
        "ffmpeg",
        [
            "-v", "error", "-i", BufprobeProcess.sample("h264-aac.mp4"), "-map", "0:v", "-map", "0:v", "-map", "0:a",
            "-c:a", "copy", "-c:v", "libx264", "-threads", "1", "-b:v:0", "100k", "-b:v:1", "300k", "-s:v:1",
            "640x360", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-f", "hls", "-hls_time", "2",
            "-hls_playlist_type", "vod", "-hls_segment_filename", directory.appendingPathComponent("seg_%v_%03d.ts").path,
            "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,agroup:aud v:1,agroup:aud a:0,agroup:aud,default:yes",
            directory.appendingPathComponent("stream_%v.m3u8").path,
        ])
}

@Suite("bufprobe simulate fetches the separate audio track beside the video, and logs each request")
struct SimulateTracksTests {
    @Test("DASH: the audio adaptation set is fetched beside the video; every request in request_log matches the files on disk")
    func dashAudio() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-simtracks")
        defer { try? FileManager.default.removeItem(at: directory) }
        try CheckDASHTests.makeDASH(in: directory)
        let manifest = directory.appendingPathComponent("manifest.mpd").path
        let (run, decoded) = try simulate([manifest, "--abr", "throughput", "--bandwidth", "2Mbit", "--latency", "20ms"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        #expect(report.tracks == ["video", "audio"])
        #expect(report.source.audio?.hasPrefix("audio representation 2") == true, "\(report.source)")
        let log = report.requestLog
        #expect(log.count == report.requests)
        #expect(log.map(\.bytes).reduce(0, +) == report.bytesReceived)
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.start <= $1.start })
        // FFmpeg numbers the representations in input order: stream0 (100k, ladder 0), stream1 (300k,
        // ladder 1), stream2 the audio; segment k is chunk-streamN-(k+1).
        for request in log where request.kind == "segment" {
            let stream = request.track == "audio" ? 2 : try #require(request.variant)
            let segment = try #require(request.segment)
            let name = String(format: "chunk-stream%d-%05d.m4s", stream, segment + 1)
            #expect(request.bytes == (try size(directory, name)), "\(request)")
            #expect(!request.abandoned && request.end! > request.start)
        }
        for request in log where request.kind == "initialization" {
            let stream = request.track == "audio" ? 2 : try #require(request.variant)
            #expect(request.bytes == (try size(directory, "init-stream\(stream).m4s")))
        }
        let audio = log.filter { $0.track == "audio" }
        let audioFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("chunk-stream2-") }
        #expect(audio.filter { $0.kind == "segment" }.compactMap(\.segment) == Array(0..<audioFiles.count))
        #expect(audio.allSatisfy { $0.variant == nil })

        // Switched off: the video alone, as before.
        let (plainRun, plain) = try simulate([manifest, "--abr", "throughput", "--bandwidth", "2Mbit", "--latency", "20ms", "--no-audio-track"])
        #expect(plainRun.status == 0, "\(plainRun.stderr)")
        #expect(plain?.tracks == ["video"] && plain?.source.audio == nil)
        #expect(plain?.requestLog.allSatisfy { $0.track == "video" } == true)
        #expect((plain?.bytesReceived ?? 0) < report.bytesReceived)
        // The text report names the audio track.
        let text = try BufprobeProcess.run(["simulate", manifest, "--bandwidth", "2Mbit"])
        #expect(text.stdout.contains("audio    audio representation 2"), "\(text.stdout)")
        #expect(!text.stdout.contains("request_log"))
    }

    @Test("HLS: the default rendition of the variant's AUDIO group is fetched beside the video; startup waits for both")
    func hlsAudio() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-simtracks")
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeHLSWithAudio(in: directory)
        let master = directory.appendingPathComponent("master.m3u8").path
        let (run, decoded) = try simulate([master, "--variant", "1", "--bandwidth", "1Mbit", "--latency", "30ms"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(decoded)
        #expect(report.tracks == ["video", "audio"])
        let audio = report.requestLog.filter { $0.track == "audio" }
        let video = report.requestLog.filter { $0.track == "video" }
        let audioFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("seg_2_") }
        #expect(audio.count == audioFiles.count && audio.count > 0)
        for request in audio {
            let name = String(format: "seg_2_%03d.ts", try #require(request.segment))
            #expect(request.bytes == (try size(directory, name)))
        }
        for request in video {
            let name = String(format: "seg_1_%03d.ts", try #require(request.segment))
            #expect(request.bytes == (try size(directory, name)))
        }
        let firstVideo = try #require(video.first { $0.segment == 0 }?.end)
        let firstAudio = try #require(audio.first { $0.segment == 0 }?.end)
        #expect(report.startupDelay >= max(firstVideo, firstAudio) - 1e-6)
        #expect(report.ended && report.stallCount == 0)
        // One audio segment: constant link, while both transfer they share it.
        let (_, alone) = try simulate([master, "--variant", "1", "--bandwidth", "1Mbit", "--latency", "30ms", "--no-audio-track"])
        let aloneFirst = try #require(alone?.requestLog.first { $0.segment == 0 }?.end)
        #expect(firstVideo > aloneFirst + 0.01, "the video's first segment shares the link: \(firstVideo) vs \(aloneFirst)")
    }
}
