import Foundation
import Testing
import TestSupport

/// Rates read as meant, through the real binary: a unit-less rate below 1,000 bit/s and a rate of 0 are
/// refused with a sentence naming the option and what to write instead, exit 64; valid rates run.
@Suite("Rates read as meant")
struct RatesAsMeantTests {
    static let file = BufprobeProcess.sample("h264-aac.mp4")

    @Test("each rate no one means is refused with its sentence and exit 64", arguments: [
        (["simulate", "--bandwidth", "150", file],
            "error: --bandwidth: '150' has no unit, so it is 150 bit/s, slower than any network or media; did you mean 150k (150 kbit/s)?"),
        (["simulate", "--bandwidth", "0", file],
            "error: --bandwidth: '0' is no rate at all; a network that delivers nothing is an outage: use a script's timeline step, e.g. { at: 10s, outage: 5s }."),
        (["simulate", "--bandwidth", "0Mbit", file], "error: --bandwidth: '0Mbit' is no rate at all; a network that delivers nothing is an outage"),
        (["simulate", "--bitrate", "3", "--duration", "10s", "--bandwidth", "1M"],
            "error: --bitrate: '3' has no unit, so it is 3 bit/s, slower than any network or media; did you mean 3M (3 Mbit/s)?"),
        (["simulate", "--bitrate", "0", "--duration", "10s", "--bandwidth", "1M"], "error: --bitrate: '0' is no rate at all; media has a bit rate above 0"),
        (["check", "--rate", "500", file], "error: --rate: '500' has no unit, so it is 500 bit/s, slower than any network or media; did you mean 500k (500 kbit/s)?"),
    ])
    func refused(arguments: [String], sentence: String) throws {
        let result = try BufprobeProcess.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(sentence), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a script's bandwidth of 150 is refused at its line, with the unit it likely meant, exit 64")
    func scriptRefused() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-rates")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("s.yaml")
        try "media: \(Self.file)\nnetwork: { bandwidth: 2Mbit }\ntimeline:\n  - { at: 2s, bandwidth: 150 }\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["simulate", "--script", script.path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("s.yaml:4: timeline[0].bandwidth: '150' has no unit, so it is 150 bit/s, slower than any network or media; did you mean 150k (150 kbit/s)?"), "\(result.stderr)")
    }

    @Test("valid rates keep their meaning: 150k, 1000 and 2Mbit simulate as before")
    func validRatesRun() throws {
        for rate in ["150k", "1000", "2Mbit"] {
            let result = try BufprobeProcess.run(["simulate", "--json", "--bandwidth", rate, Self.file])
            #expect(result.status == 0, "\(rate): \(result.stderr)")
        }
    }
}
