// Of bufprobe's modules, this file imports only `Bufprobe`: what the example package and the README's Swift
// section write must compile against the one library module, and run.
import Bufprobe
import Foundation
import Testing
import TestSupport

@Suite("import Bufprobe alone gives probe, simulate, check and the model's types", .ffmpegLog)
struct BufprobeModuleTests {
    @Test("validate's engine resolves through import Bufprobe: a clean stream breaks no must rule, and the catalogue is there")
    func validateThroughTheLibrary() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try StreamValidation(source: folder.appendingPathComponent("master.m3u8").path).run()
        #expect(report.mustFix.isEmpty)
        #expect(ValidationCatalogue.rule("apple:1.27")?.level == .must)
    }

    @Test("the example's calls resolve through import Bufprobe: a whole sample probes complete, simulates, and checks as pass")
    func exampleCalls() async throws {
        let media = BufprobeProcess.sample("h264-aac.mp4")
        let probe = try await MediaProbe.probe(media)
        #expect(probe.complete && probe.streams.count == 2)

        let policy = BufferPolicy.default.overriding(startThreshold: 2)
        let run: SimulationSummary = try await NetworkSimulation.simulate(media, bandwidth: 150_000, latency: 0.05, policy: policy)
        let qoe: QoEReport = run.qoe
        #expect(run.started && qoe.stalls.count == run.stalls.count)

        let logger: Logger = StreamCheck.silent
        #expect(Logger(label: "ffmpeg").label == "ffmpeg")
        let check = StreamCheck(media, options: .init(duration: 2), logger: logger)
        let report = await check.run()
        #expect(report.verdict == .pass, "\(report.reason)")
    }
}
