import BufprobeServe
import Foundation
import Testing
import TestSupport

/// A `serve` module with `validate: true`: `/probe` validates the target as `bufprobe validate` does and
/// answers `bufprobe_validation_findings{rule,level}` for every rule checked, the verdict (pass, degraded
/// for must-fix findings, fail for an unreadable target) and what was read; the exposition passes promtool.
@Suite("serve: a validate module answers the validation's findings", .serialized)
struct ServeValidateModuleTests {
    static func config(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-validate-module-\(UUID().uuidString).yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func findingsPerRuleVerdictAndPromtool() throws {
        let clean = try ValidateFixtures.clean(.ts)
        let broken = try ValidateFixtures.make("bandwidthWrong").deletingLastPathComponent()
        defer {
            try? FileManager.default.removeItem(at: clean)
            try? FileManager.default.removeItem(at: broken)
        }
        let nginx = try NginxServer(extraRoots: ["clean": clean, "broken": broken])
        let file = try Self.config("modules:\n  authoring:\n    validate: true\n    timeout: 5s\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let serve = try ServeProcess(["--config.file", file.path])
        func probe(_ target: String) throws -> (Exposition, String) {
            let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let body = try serve.get("/probe?module=authoring&target=\(escaped)").body
            return (try Exposition(body), body)
        }

        let (good, goodText) = try probe(nginx.url("clean/master.m3u8"))
        #expect(good.value("bufprobe_probe_success") == 1)
        #expect(good.value("bufprobe_verdict", ["verdict": "pass"]) == 1)
        #expect(good.value("bufprobe_validation_findings", ["rule": "apple:1.27", "level": "must"]) == 0, "every rule is written, 0 included")
        #expect(good.value("bufprobe_validation_findings", ["rule": "apple:9.9", "level": "should"]) == 0)
        #expect(good.value("bufprobe_validation_segments_read") == 8)
        #expect(good.value("bufprobe_validation_complete") == 1)
        #expect(!good.has("bufprobe_stalls"), "a validation answers no check metric")
        let goodLint = try PromtoolMetricsTests.lint(goodText)
        #expect(goodLint.status == 0, "\(goodLint.output)")

        let (bad, badText) = try probe(nginx.url("broken/master.m3u8"))
        #expect(bad.value("bufprobe_validation_findings", ["rule": "apple:1.27", "level": "must"]) == 1)
        #expect(bad.value("bufprobe_verdict", ["verdict": "degraded"]) == 1)
        #expect(bad.value("bufprobe_probe_success") == 1, "the stream was read: the findings say what is wrong")
        #expect(try PromtoolMetricsTests.lint(badText).status == 0)

        let (missing, _) = try probe(nginx.url("clean/none.m3u8"))
        #expect(missing.value("bufprobe_probe_success") == 0)
        #expect(missing.value("bufprobe_verdict", ["verdict": "fail"]) == 1)
        #expect(!missing.has("bufprobe_validation_findings"))
        let debug = try serve.get("/probe?module=authoring&debug=true&target=\(nginx.url("clean/none.m3u8"))").body
        #expect(debug.contains("not validated:") && debug.contains("answered HTTP 404"), "\(debug)")
    }

    @Test func validateKeyTakesTrueOrFalse() throws {
        let module = try #require(try ExporterConfig.parse("modules:\n  a:\n    validate: true\n").modules["a"])
        #expect(module.validate)
        #expect(try ExporterConfig.parse("modules:\n  a:\n    validate: false\n").modules["a"]?.validate == false)
        #expect(ExporterConfig.moduleKeys.contains("validate"))
        let file = try Self.config("modules:\n  a:\n    validate: yes please\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let checked = try BufprobeProcess.run(["serve", "--config.file", file.path, "--config.check"])
        #expect(checked.status != 0)
        #expect(checked.stderr.contains("validate takes true or false"), "\(checked.stderr)")
    }
}
