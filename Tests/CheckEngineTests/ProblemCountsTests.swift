import BufprobeOutput
import CheckEngine
import Foundation
import MediaIO
import Testing

@Suite("A live report's counts per problem kind")
struct ProblemCountsTests {
    @Test("every kind is a key of the JSON object under its stable name, 0 when none was seen")
    func everyKindIsAKey() throws {
        var counts = CheckReport.PlaylistHealth.Counts()
        counts.add(2, to: .segmentURIChanged)
        counts[.stale] += 1
        let json = try JSONOutput.string(counts)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Int])
        #expect(Set(object.keys) == Set(HLSPlaylistHealth.Kind.allCases.map(\.rawValue)))
        #expect(object["segment_uri_changed"] == 2 && object["stale"] == 1 && object["parse_error"] == 0)
        // Foundation's encoder with the same settings writes the same bytes.
        let reference = try JSONOutput.referenceEncoder().encode(counts)
        #expect(json == String(decoding: reference, as: UTF8.self))
    }

    @Test("the document reads back through bufprobe's snake_case decoder, and a missing key reads as 0")
    func readsBack() throws {
        var counts = DASHLiveReport.Counts()
        counts[.missingSegment] = 3
        counts[.reloadEarly] = 1
        let decoded = try JSONOutput.decoder().decode(DASHLiveReport.Counts.self, from: Data(JSONOutput.string(counts).utf8))
        #expect(decoded == counts)
        let partial = try JSONOutput.decoder().decode(DASHLiveReport.Counts.self, from: Data(#"{"early_request": 4}"#.utf8))
        #expect(partial[.earlyRequest] == 4 && partial[.missingSegment] == 0)
    }

    @Test("adding saturates at Int.max instead of trapping")
    func addSaturates() {
        var counts = DASHLiveReport.Counts()
        counts.add(.max, to: .reloadLate)
        counts.add(1, to: .reloadLate)
        #expect(counts[.reloadLate] == .max)
    }
}
