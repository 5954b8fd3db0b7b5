import CheckEngine
import PlaybackModel
import Testing

/// `CheckSettings.init(timeout:...)`: the one place a check's values are validated, for `check`, `serve`'s
/// `/probe` and `StreamCheck`.
@Suite("CheckSettings from typed values")
struct CheckSettingsTests {
    @Test("valid values are kept, and a player's policy stands in for a policy not given")
    func keepsValues() throws {
        let settings = try CheckSettings(timeout: Seconds(4), duration: Seconds(12), player: .hlsjs, headers: ["X-A: 1"])
        #expect(settings.timeout == 4 && settings.duration == 12 && settings.headers == ["X-A: 1"])
        #expect(settings.policy == PlayerPreset.hlsjs.policy && settings.player == .hlsjs)
        let given = BufferPolicy.default.overriding(startThreshold: 1.5)
        #expect(try CheckSettings(policy: given, player: .hlsjs).policy == given)
    }

    @Test("a value no check can use is refused, the sentence naming it as the front end calls it")
    func refuses() {
        func sentence(_ make: () throws(CheckSettings.Invalid) -> CheckSettings) -> String? {
            do {
                _ = try make()
                return nil
            } catch {
                return error.sentence { "--\($0)" }
            }
        }
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(timeout: Seconds(0)) }?.hasPrefix("--timeout must be more than 0 seconds") == true)
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(duration: Seconds(-1)) }?.hasPrefix("--duration must be more than 0 seconds") == true)
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(headers: ["no colon"]) } == "--header takes 'Name: value', got 'no colon'.")
        // A colon with no name before it is no header either: the rule `serve`'s module headers share.
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(headers: [": value"]) } == "--header takes 'Name: value', got ': value'.")
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(headers: ["X-Token: a"]) } == nil)
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(allVariantsSegments: 0) }?.hasPrefix("--all-variants-segments must be between 1 and") == true)
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(thresholds: VerdictThresholds(maxStartup: 0)) }?.hasPrefix("--maxStartup must be more than 0 seconds") == true)
        #expect(sentence { () throws(CheckSettings.Invalid) in try CheckSettings(timeout: Seconds(10)) } == nil)
    }

    @Test("StreamCheck with a timeout of 0 fails at once, its reason naming the option, without opening anything")
    func streamCheckRefuses() async {
        let report = await StreamCheck("/nonexistent/never-opened.mp4", options: .init(timeout: 0)).run()
        #expect(report.verdict == .fail)
        #expect(report.reason == "the check's options are not usable: timeout must be more than 0 seconds, got \(Seconds(0)).")
        #expect(report.json.contains("\"verdict\" : \"fail\""))
    }
}
