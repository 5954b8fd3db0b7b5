import Foundation
import Testing
import TestSupport

@Suite("A stream whose parameters were not found is reported, and peaks are never below averages")
struct MissingParametersTests {
    private func probe(_ arguments: [String]) throws -> [String: Any] {
        let result = try BufprobeProcess.run(["probe", "--json", "--progress", "none"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("probesize=32 analyzeduration=0: the audio stream left out of the playable ranges has a warning saying so")
    func warnsAboutMissingParameters() throws {
        let document = try probe(["-o", "probesize=32", "-o", "analyzeduration=0", BufprobeProcess.sample("h264-aac.ts")])
        let playable = try #require(document["playable_streams"] as? [Int])
        let warnings = try #require(document["warnings"] as? [String])
        let streams = try #require(document["streams"] as? [[String: Any]])
        for stream in streams {
            guard let index = stream["index"] as? Int, stream["type"] as? String == "audio", !playable.contains(index) else { continue }
            #expect(warnings.contains { $0.contains("parameters of stream \(index) (audio") && $0.contains("left out of the playable ranges") }, "\(warnings)")
        }
        #expect(warnings.contains { $0.contains("probesize") }, "\(warnings)")
    }

    @Test("with FFmpeg's default probing there is no such warning")
    func noWarningByDefault() throws {
        let document = try probe([BufprobeProcess.sample("h264-aac.ts")])
        let warnings = try #require(document["warnings"] as? [String])
        #expect(!warnings.contains { $0.contains("did not find the parameters") }, "\(warnings)")
    }

    @Test("every stream's peak and every profile peak is at least the average", arguments: [
        [] as [String], ["-o", "probesize=32", "-o", "analyzeduration=0"],
    ])
    func peakNeverBelowAverage(options: [String]) throws {
        let document = try probe(options + [BufprobeProcess.sample("h264-aac.ts")])
        let streams = try #require(document["streams"] as? [[String: Any]])
        for stream in streams {
            let average = try #require(stream["average_bit_rate"] as? Double)
            let peak = try #require(stream["peak_bit_rate"] as? Double)
            #expect(peak >= average, "stream \(stream["index"] ?? "?"): peak \(peak) < average \(average)")
        }
        let profile = try #require(document["bit_rate_profile"] as? [String: Any])
        let average = try #require(profile["average_bps"] as? Double)
        for peak in try #require(profile["peaks"] as? [[String: Any]]) {
            if let value = peak["peak_bps"] as? Double { #expect(value >= average, "\(peak)") }
        }
    }
}
