import Foundation
import TestSupport
import Testing
import ValidateEngine

/// The driver on DASH made by ffmpeg's `dash` muxer at test time: the clean ladder breaks no rule, the
/// measured table says what each representation needs, and bad input is a finding or the one-sentence failure.
/// (Every DASH rule firing on its fixture is `StreamValidationTests.ruleFiresOnItsFixture`.)
@Suite(.ffmpegLog) struct DASHValidationTests {
    @Test func cleanLadderBreaksNoRule() throws {
        let folder = try ValidateFixtures.cleanDASH()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try StreamValidation(source: folder.appendingPathComponent("manifest.mpd").path).run()
        #expect(report.format == .dash)
        #expect(report.mustFix.isEmpty, "\(report.mustFix.map(\.message))")
        #expect(report.shouldFix.isEmpty, "\(report.shouldFix.map(\.message))")
        #expect(report.variants.count == 3)
        #expect(report.variants.map(\.segmentsRead) == [4, 4, 5])
        #expect(report.variants.allSatisfy { $0.segmentsRead == $0.segmentsListed })
        #expect(report.notRead.isEmpty)
        let video = report.variants[0]
        #expect(video.id == "0" && video.bandwidth == 250_000)
        #expect(video.measuredResolution == "384x216" && video.resolution == "384x216")
        #expect(video.frameRate == "25/1" && video.measuredFrameRate == 25)
        // What the media needs, at most what it declares (the clean ladder's VBV is its @bandwidth).
        let needed = try #require(video.neededBandwidth)
        #expect(needed > 0 && needed <= 250_000)
    }

    @Test func bandwidthFindingStatesNeededDeclaredAndPercent() throws {
        let mpd = try ValidateFixtures.make("dashBandwidthTooLow")
        defer { try? FileManager.default.removeItem(at: mpd.deletingLastPathComponent()) }
        let report = try StreamValidation(source: mpd.path).run()
        let finding = try #require(report.findings.first { $0.rule == "iso23009-1:5.3.5.2@bandwidth" })
        #expect(finding.declared == 150_000)
        let needed = try #require(finding.measured)
        // The representation was encoded for 600 kbit/s: a quarter of it cannot carry it.
        #expect(needed > 300_000 && needed <= 600_000)
        #expect(finding.message.contains("representation 2 (id 1)"))
        #expect(finding.message.contains("minBufferTime 4") && finding.message.contains("@bandwidth 150 kbit/s"))
        #expect(finding.message.contains("+"))
        #expect(report.findings.filter { $0.rule == "iso23009-1:5.3.5.2@bandwidth" }.count == 1)
    }

    @Test func misalignedLadderNamesTheFirstSegmentApart() throws {
        let mpd = try ValidateFixtures.make("dashSegmentsMisaligned")
        defer { try? FileManager.default.removeItem(at: mpd.deletingLastPathComponent()) }
        let report = try StreamValidation(source: mpd.path).run()
        let messages = report.findings.filter { $0.rule == "iso23009-1:5.3.3.2@segmentAlignment" }.map(\.message)
        #expect(messages.contains { $0.contains("list 3, 4 segments") })
        #expect(messages.contains { $0.contains("segment 2 starts between 2.000 s and 3.000 s") })
        // Each representation matches its own timeline: only the alignment is wrong.
        #expect(!report.findings.contains { $0.rule == "iso23009-1:5.3.9.6" })
    }

    @Test func missingSegmentIsAReadFindingAndTheRestIsJudged() throws {
        let folder = try ValidateFixtures.cleanDASH()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("chunk-stream1-00003.m4s"))
        let report = try StreamValidation(source: folder.appendingPathComponent("manifest.mpd").path).run()
        let read = try #require(report.findings.first { $0.rule == "bufprobe:read" })
        #expect(read.message.contains("representation 2 (id 1)") && read.message.contains("1 of 4 segments read failed"))
        #expect(read.where.last?.hasSuffix("chunk-stream1-00003.m4s") == true)
        #expect(report.variants[1].segmentsRead == 3)
    }

    @Test func segmentThatIsNotMediaIsAReadFinding() throws {
        let folder = try ValidateFixtures.cleanDASH()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not media at all".utf8).write(to: folder.appendingPathComponent("init-stream2.m4s"))
        let report = try StreamValidation(source: folder.appendingPathComponent("manifest.mpd").path).run()
        let read = try #require(report.findings.first { $0.rule == "bufprobe:read" })
        #expect(read.message.contains("representation 3 (id 2)") && read.message.contains("does not open as media"))
    }

    @Test func mpdMissingBandwidthIsAFindingNotAFailure() throws {
        let mpd = try ValidateFixtures.make("representationBandwidthMissing")
        defer { try? FileManager.default.removeItem(at: mpd.deletingLastPathComponent()) }
        let report = try StreamValidation(source: mpd.path).run()
        let finding = try #require(report.findings.first { $0.rule == "iso23009-1:5.3.5.2" })
        #expect(finding.message == "Representation @bandwidth is missing in 1 of 3 Representations")
        // The parser cannot work the segments out without it: nothing was read, and the report says why.
        #expect(report.findings.contains { $0.rule == "bufprobe:read" && $0.message.contains("no usable bandwidth") })
        #expect(report.segmentsRead == 0)
    }

    @Test(arguments: [
        ("broken.mpd", "<MPD type=\"static\"><Period>", "is not well-formed XML"),
        ("other.mpd", "<?xml version=\"1.0\"?><html><body/></html>", "is XML but neither an HLS playlist nor a DASH MPD (its root is <html>)"),
        ("two.mpd", "<MPD type=\"static\"><Period/><Period/></MPD>", "has 2 periods"),
        ("text.mpd", "this is not XML", "is not well-formed XML"),
    ])
    func inputThatIsNotAStaticMPDIsAFailureNamingIt(name: String, text: String, words: String) throws {
        let folder = try CheckServers.temporaryDirectory("bufprobe-validate-dash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try StreamValidation(source: path).run()
            Issue.record("\(name) was validated")
        } catch {
            #expect(error.description.hasPrefix("\(path) "))
            #expect(error.description.contains(words), "\(error.description)")
        }
    }

    @Test func dynamicMPDIsJudgedOnItsXMLAndSaysItsSegmentsWereNotRead() throws {
        let folder = try CheckServers.temporaryDirectory("bufprobe-validate-dash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let representation = #"<AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="500000"><SegmentTemplate media="$Number$.m4s" duration="2"/></Representation></AdaptationSet>"#
        let bare = folder.appendingPathComponent("bare.mpd").path
        try #"<MPD type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S"><Period start="PT0S">\#(representation)</Period></MPD>"#
            .write(toFile: bare, atomically: true, encoding: .utf8)
        let report = try StreamValidation(source: bare).run()
        #expect(report.findings.map(\.rule) == ["iso23009-1:5.3.1.2", "dvb-dash:4.7.2"])
        #expect(report.findings.first?.message == "MPD@availabilityStartTime (the MPD is dynamic) is missing")
        #expect(report.segmentsRead == 0)
        #expect(report.notRead.contains { $0.contains("live (dynamic) MPD") })

        let timed = folder.appendingPathComponent("timed.mpd").path
        try #"<MPD type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S" availabilityStartTime="2026-01-01T00:00:00Z"><UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="http://127.0.0.1/time"/><Period start="PT0S">\#(representation)</Period></MPD>"#
            .write(toFile: timed, atomically: true, encoding: .utf8)
        #expect(try StreamValidation(source: timed).run().findings.isEmpty)
    }
}
