import Foundation
import TestSupport
import Testing
import ValidateEngine

/// The driver on real media made by ffmpeg at test time: the clean streams break no must rule, and every
/// rule of the catalogue fires on its fixture.
@Suite(.ffmpegLog) struct StreamValidationTests {
    @Test(arguments: ValidateFixtures.Kind.allCases)
    func cleanStreamBreaksNoMustRule(kind: ValidateFixtures.Kind) throws {
        let folder = try ValidateFixtures.clean(kind)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try StreamValidation(source: folder.appendingPathComponent("master.m3u8").path).run()
        #expect(report.mustFix.isEmpty, "\(report.mustFix.map(\.message))")
        #expect(report.shouldFix.isEmpty, "\(report.shouldFix.map(\.message))")
        #expect(report.variants.count == 2)
        #expect(report.variants.allSatisfy { $0.segmentsRead == 4 && $0.segmentsListed == 4 })
        #expect(report.segmentsRead == 8)
        #expect(report.notRead.isEmpty)
    }

    @Test(arguments: ValidationCatalogue.rules)
    func ruleFiresOnItsFixture(rule: ValidationRule) throws {
        let playlist = try ValidateFixtures.make(rule.fixture)
        defer { try? FileManager.default.removeItem(at: playlist.deletingLastPathComponent()) }
        let report = try StreamValidation(source: playlist.path).run()
        let fired = report.findings.filter { $0.rule == rule.id }
        #expect(!fired.isEmpty, "\(rule.id) did not fire on \(rule.fixture): \(report.findings.map(\.rule))")
        #expect(fired.allSatisfy { $0.level == rule.level })
    }

    @Test func peakFindingStatesMeasuredDeclaredAndPercent() throws {
        let playlist = try ValidateFixtures.make("bandwidthWrong")
        defer { try? FileManager.default.removeItem(at: playlist.deletingLastPathComponent()) }
        let report = try StreamValidation(source: playlist.path).run()
        let finding = try #require(report.findings.first { $0.rule == "apple:1.27" })
        let measured = try #require(finding.measured)
        let declared = try #require(finding.declared)
        // BANDWIDTH was halved: the measured peak is about twice it.
        #expect(abs(measured / declared - 2) < 0.01)
        #expect(finding.message.contains("measured peak"))
        #expect(finding.message.contains("+100 %") || finding.message.contains("+99 %"))
        #expect(finding.where.last?.hasSuffix("v1/index.m3u8") == true)
    }

    @Test func ignoredRuleLeavesNoFinding() throws {
        let playlist = try ValidateFixtures.make("singleVariant")
        defer { try? FileManager.default.removeItem(at: playlist.deletingLastPathComponent()) }
        var settings = ValidationSettings()
        settings.ignored = ["apple:9.9"]
        let report = try StreamValidation(source: playlist.path, settings: settings).run()
        #expect(!report.findings.contains { $0.rule == "apple:9.9" })
        #expect(!report.rulesChecked.contains("apple:9.9"))
    }

    @Test func byteBoundReadsTheFirstSegmentsAndSaysWhichWereNot() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = ValidationSettings()
        settings.maxBytes = 1
        settings.concurrency = 1
        let report = try StreamValidation(source: folder.appendingPathComponent("master.m3u8").path, settings: settings).run()
        #expect(report.segmentsRead == 1)
        #expect(report.notRead.count == 2)
        #expect(report.notRead.allSatisfy { $0.contains("--max-bytes") })
        // A whole-playlist rule is not judged on a part of it.
        #expect(!report.findings.contains { $0.rule == "apple:8.1" })
    }

    @Test func playlistWithoutEndListIsReadOnceAndSaidSo() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = folder.appendingPathComponent("v1/index.m3u8")
        let text = try String(contentsOf: media, encoding: .utf8).replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")
        try text.write(to: media, atomically: true, encoding: .utf8)
        let report = try StreamValidation(source: media.path).run()
        #expect(report.segmentsRead == 4)
        #expect(report.notRead.contains { $0.contains("has no EXT-X-ENDLIST") })
        #expect(!report.findings.contains { $0.rule == "apple:8.6" })
    }

    @Test func inputThatIsNotAPlaylistIsAFailureNamingIt() throws {
        let path = Samples.directory.appendingPathComponent("h264-aac.mp4").path
        #expect(throws: ValidationFailure.self) { try StreamValidation(source: path).run() }
        do {
            _ = try StreamValidation(source: "/nonexistent/master.m3u8").run()
            Issue.record("a missing input was validated")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/master.m3u8 "))
        }
    }
}

/// Hostile inputs end in findings or the one-sentence failure, never a hang.
@Suite struct HostilePlaylistTests {
    @Test func deviceOrSelfReferenceIsAReadFindingNotAHang() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        let master = folder.appendingPathComponent("master.m3u8")
        // The first variant's playlist lists /dev/zero; the second variant is the master itself.
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2,\n/dev/zero\n#EXT-X-ENDLIST\n"
            .write(to: folder.appendingPathComponent("v1/index.m3u8"), atomically: true, encoding: .utf8)
        let text = try String(contentsOf: master, encoding: .utf8).replacingOccurrences(of: "v2/index.m3u8", with: "master.m3u8")
        try text.write(to: master, atomically: true, encoding: .utf8)
        let report = try StreamValidation(source: master.path).run()
        let read = report.findings.filter { $0.rule == "bufprobe:read" }.map(\.message)
        #expect(read.contains { $0.contains("not a regular file") })
        #expect(read.contains { $0.contains("multivariant playlist, not a media playlist") })
    }
}
