// Uses bufprobe as a library: probes a media file, simulates playing it over a slow network, then checks
// it as `bufprobe check --rate 1x` does (delivered in real time, with progress as it plays). Exits 1 when something failed.
// Run from this directory: swift run BufprobeExample [media] (default: the repository's samples/h264-aac.mp4).
import Bufprobe
import Foundation

let media = CommandLine.arguments.dropFirst().first ?? "../../samples/h264-aac.mp4"

do {
    let probe = try await MediaProbe.probe(media)
    let duration = probe.duration.map { "\($0) s" } ?? "unknown length"
    print("\(media): \(probe.format?.name ?? "?"), \(duration), \(probe.complete ? "complete" : "truncated")")
    for stream in probe.streams {
        print("  stream \(stream.index): \(stream.kind.rawValue) \(stream.codec), \(stream.packets) packets")
    }
    print("  gaps: \(probe.gaps.count), warnings: \(probe.warnings.count)")

    // A player that waits for 2 s of media before starting, over 150 kbit/s with 50 ms per request.
    let policy = BufferPolicy.default.overriding(startThreshold: 2)
    let run = try await NetworkSimulation.simulate(media, bandwidth: 150_000, latency: 0.05, policy: policy)
    print("at 150 kbit/s: startup \(run.startupDelay) s, \(run.stalls.count) stalls, rebuffer ratio \(run.rebufferRatio.map { "\($0)" } ?? "none (never started)")")
    for stall in run.stalls {
        print("  stall at \(stall.position) s of media, \(stall.duration) s long")
    }

    // A real-time check of the first 2 s: `rate: .realtime(1)` delivers the local file as a stream playing
    // in real time (check --rate 1x; without it the file is read at disk speed, hundreds of times faster),
    // with the player's state every half second.
    let check = StreamCheck(media, options: .init(duration: 2, rate: .realtime(1)))
    let watcher = Task {
        for await state in check.progress() {
            let elapsed = String(format: "%.1f", state.elapsed)
            let buffered = String(format: "%.2f", state.bufferedAhead)
            print("  \(elapsed) s: \(state.state?.name ?? "opening"), \(buffered) s buffered")
        }
    }
    let report = await check.run()
    await watcher.value
    print("check: \(report.verdict.rawValue): \(report.reason)")
    let speed = report.sampledDuration > 0 ? report.played / report.sampledDuration : 0
    print(String(format: "  played %.2f s of media in %.2f s: %.2fx real time", report.played, report.sampledDuration, speed))
    if report.verdict == .fail { exit(1) }
} catch {
    // Both errors describe themselves in one sentence, as the command line does.
    print("error: \(error)")
    exit(1)
}
