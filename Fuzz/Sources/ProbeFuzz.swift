// libFuzzer entry point for the probe path: each input is a whole media file (or playlist) held in
// memory, read the way `bufprobe probe --plot` reads a file, and every output is rendered.
// Built only by Fuzz/run-fuzz.sh (BUFPROBE_FUZZ=1, -sanitize=fuzzer,address); see Fuzz/README.md.
@testable import BufprobeCommands
@testable import CheckEngine
import CLibFuzzer
import Foundation
import Logging
import MediaIO
import ProgressLine
import BufprobeOutput
import ProbeEngine

/// Runs libFuzzer with the command line (`-runs=N`, corpus directories...) over `probeOneInput`.
@main
struct ProbeFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, probeOneInput))
    }
}

/// Installs FFmpeg's log sink once, into a logger that drops everything: FFmpeg's lines would flood
/// stderr at thousands of inputs per second, and `recentErrors` (which the report reads) is kept anyway.
private let quietLog: Void = {
    FFmpegLog.install(logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }, verbose: false)
}()

/// One input through the probe path: open from memory, read every packet into the tallies, loaded
/// ranges and diagnostics, then the live line, the text and JSON reports and the SVG plot.
@_cdecl("LLVMFuzzerTestOneInput")
public func probeOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    quietLog
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []

    // The playlist and box parsers see the raw bytes too, whatever FFmpeg makes of them.
    _ = try? HLSPlaylist.parse(String(decoding: bytes, as: UTF8.self))
    _ = MP4BoxLayout.scan(bytes: bytes)

    let renderer = ProgressRenderer(style: ProgressStyle(glyphs: .unicode, colors: .none, showsThumb: true))
    var reader = ProbeReader(source: "fuzz-input")
    reader.bytes = bytes
    // Lets the HLS demuxer read the seeds' data: segments (this FFmpeg refuses a segment whose URL has
    // no media extension); the memory input's protocol whitelist still allows data: URIs only.
    reader.options = ["allowed_extensions": "ALL", "allowed_segment_extensions": "ALL", "extension_picky": "0"]
    // A live playlist (no #EXT-X-ENDLIST) makes the HLS demuxer wait for new segments, polling the
    // interrupt callback: the timeout turns that wait into a read error instead of a hang.
    reader.interrupter = Interrupter(timeout: .milliseconds(500))
    reader.progressInterval = 4
    reader.onProgress = { progress in
        let snapshot = Probe.snapshot(progress, title: "fuzz-input")
        _ = renderer.render(snapshot, width: 80)
        _ = renderer.renderPlain(snapshot)
    }
    reader.diagnostics.latency = 0.05
    reader.diagnostics.extraStartupDelay = 2
    reader.diagnostics.collectTimeline = true
    let (report, _, timeline) = reader.readWithTimeline()

    _ = ProbeText.render(report)
    _ = try? JSONOutput.string(report)
    if let timeline {
        _ = ProbePlotFile.svg(timeline, report: report, startupDelay: 2)
    }
    return 0
}
