@testable import BufprobeCommands
@testable import CheckEngine
import PlaybackModel
import Testing
@testable import SimulateEngine

@Suite("Simulation scripts")
struct SimulateScriptTests {
    @Test("a full script reads every section, with units, in the order written")
    func fullScript() throws {
        let yaml = """
            media: clip.mp4
            network: { bandwidth: 2Mbit, latency: 40ms, constrained: true }
            policy: { start: 1s, resume: 2s, max_buffer: 50s, back_buffer: 10s }
            autoplay: false
            timeline:
              - { at: 1s, play }
              - { at: 30s, bandwidth: 500kbit }
              - { at: 60s, outage: 10s }
              - { at: 90s, seek: 2m }
              - { at: 100s, pause: 5s }
              - { at: 120s, rate: 1.5 }
              - at: 130s
                latency: 100ms
            """
        let script = try SimulationScript.parse(yaml: yaml, file: "s.yaml")
        #expect(script.media == "clip.mp4")
        #expect(script.lines["media"] == 1)
        #expect(script.bandwidth == 2_000_000)
        #expect(script.latency == 0.04)
        #expect(script.constrained == true)
        #expect(script.startThreshold == 1 && script.resumeThreshold == 2)
        #expect(script.maxBuffer == 50 && script.backBuffer == 10)
        #expect(script.autoplay == false)
        #expect(script.timeline.map(\.step) == [
            SimulationStep(time: 1, action: .play),
            SimulationStep(time: 30, action: .bandwidth(500_000)),
            SimulationStep(time: 60, action: .outage(10)),
            SimulationStep(time: 90, action: .seek(120)),
            SimulationStep(time: 100, action: .pause(5)),
            SimulationStep(time: 120, action: .rate(1.5)),
            SimulationStep(time: 130, action: .latency(0.1)),
        ])
        #expect(script.timeline.map(\.line) == [6, 7, 8, 9, 10, 11, 13])
        #expect(script.timeline[3].field == "timeline[3].seek")
    }

    @Test("JSON is YAML: a JSON script reads the same")
    func jsonScript() throws {
        let json = """
            {"synthetic": {"bitrate": "3Mbit", "duration": "10m", "variation": 0.2, "seed": 7},
             "network": {"trace": "t.json"},
             "timeline": [{"at": "5s", "seek": "1m"}]}
            """
        let script = try SimulationScript.parse(yaml: json, file: "s.json")
        #expect(script.synthetic == .init(bitsPerSecond: 3_000_000, duration: 600, variation: 0.2, seed: 7))
        #expect(script.trace == "t.json")
        #expect(script.timeline.map(\.step) == [SimulationStep(time: 5, action: .seek(60))])
    }

    @Test("an empty script is an empty plan")
    func empty() throws {
        #expect(try SimulationScript.parse(yaml: "", file: "s.yaml") == SimulationScript())
        #expect(try SimulationScript.parse(yaml: "# nothing\n", file: "s.yaml") == SimulationScript())
    }

    @Test(
        "every mistake is one sentence naming the file, the line and the field",
        arguments: [
            ("medium: x.mp4", "s.yaml:1: medium: unknown key 'medium'; expected one of media, synthetic, network, policy, autoplay, timeline."),
            ("network:\n  bandwidth: 2 parsecs", "s.yaml:2: network.bandwidth: '2 parsecs' has an unknown unit 'parsecs'; expected a rate such as 400k (bit/s), 500kbit, 2Mbit, 2Mbps or 250kB/s."),
            ("network: { latency: fast }", "s.yaml:1: network.latency: 'fast' is not a duration such as 250ms, 1.5s, 2m, 1h, 1:30 or plain seconds."),
            ("network: { bandwidth: 1Mbit, trace: t.txt }", "s.yaml:1: network.trace: cannot be used together with network.bandwidth; choose one."),
            ("network: { constrained: maybe }", "s.yaml:1: network.constrained: must be true or false."),
            ("network: { speed: 3 }", "s.yaml:1: network.speed: unknown key 'speed'; expected one of bandwidth, latency, trace, constrained."),
            ("timeline:\n  - { at: -5s, seek: 1m }", "s.yaml:2: timeline[0].at: '-5s' must not be negative; expected a duration such as 250ms, 1.5s, 2m, 1h, 1:30 or plain seconds."),
            ("timeline:\n  - { at: 5s }", "s.yaml:2: timeline[0]: needs one action: bandwidth, outage, latency, seek, pause, rate, play."),
            ("timeline:\n  - { at: 5s, seek: 1m, pause: 2s }", "s.yaml:2: timeline[0]: has 2 actions (seek, pause); write one step per action."),
            ("timeline:\n  - { seek: 1m }", "s.yaml:2: timeline[0]: needs 'at', the session time of the step, such as 'at: 30s'."),
            ("timeline:\n  - { at: 1s, seek: 1m }\n  - { at: 2s, jump: 1m }", "s.yaml:3: timeline[1].jump: unknown key 'jump'; expected one of at, bandwidth, outage, latency, seek, pause, rate, play."),
            ("timeline:\n  - { at: 1s, pause: 0s }", "s.yaml:2: timeline[0].pause: '0s' must be greater than 0."),
            ("timeline:\n  - { at: 1s, rate: 0 }", "s.yaml:2: timeline[0].rate: '0' must be greater than 0; expected a number such as 1.5 or 2x."),
            ("timeline:\n  - { at: 1s, play: later }", "s.yaml:2: timeline[0].play: takes no value (write '{ at: 5s, play }' or 'play: true')."),
            ("timeline: { at: 1s }", "s.yaml:1: timeline: must be a list of steps such as '- { at: 30s, bandwidth: 500kbit }'."),
            ("timeline:\n  - { at: [1, 2], seek: 1m }", "s.yaml:2: timeline[0].at: must be a single value, not a list or a mapping."),
            ("- media: x.mp4", "s.yaml:1: must be a mapping of keys such as 'media:' and 'timeline:'."),
            ("media: a.mp4\nsynthetic: { bitrate: 1Mbit, duration: 1m }", "s.yaml:2: synthetic: cannot be used together with media; choose one."),
            ("synthetic: { duration: 1m }", "s.yaml:1: synthetic: needs a bitrate, such as 3Mbit."),
            ("synthetic: { bitrate: 0, duration: 1m }", "s.yaml:1: synthetic.bitrate: '0' is no rate at all; media has a bit rate above 0, e.g. 2Mbit."),
            ("network: { bandwidth: 0 }", "s.yaml:1: network.bandwidth: '0' is no rate at all; a network that delivers nothing is an outage: use a script's timeline step, e.g. { at: 10s, outage: 5s }."),
            ("timeline:\n  - { at: 1s, bandwidth: 150 }", "s.yaml:2: timeline[0].bandwidth: '150' has no unit, so it is 150 bit/s, slower than any network or media; did you mean 150k (150 kbit/s)?"),
            ("synthetic: { bitrate: 1Mbit, duration: 1m, variation: 2 }", "s.yaml:1: synthetic.variation: must be between 0 and 1."),
            ("synthetic: { bitrate: 1Mbit, duration: 1m, seed: -1 }", "s.yaml:1: synthetic.seed: '-1' is not a whole number of 0 or more."),
            ("policy: { start: 1 parsec }", "s.yaml:1: policy.start: '1 parsec' has an unknown unit 'parsec'; expected a duration such as 250ms, 1.5s, 2m, 1h, 1:30 or plain seconds."),
            ("autoplay: sometimes", "s.yaml:1: autoplay: must be true or false."),
            ("media: a.mp4\nmedia: b.mp4", "s.yaml:1: repeats the key 'media'; each key may appear once."),
        ])
    func mistakes(yaml: String, message: String) {
        #expect {
            _ = try SimulationScript.parse(yaml: yaml, file: "s.yaml")
        } throws: { error in
            let description = (error as? SimulationScriptError)?.description
            if description != message { print("got: \(description ?? "\(error)")") }
            return description == message
        }
    }

    @Test("a YAML syntax error names its line")
    func syntax() {
        #expect {
            _ = try SimulationScript.parse(yaml: "network: { bandwidth: 2Mbit\ntimeline: []\n", file: "s.yaml")
        } throws: { error in
            guard let error = error as? SimulationScriptError else { return false }
            return error.line != nil && error.description.hasPrefix("s.yaml:") && error.description.contains("is not valid YAML")
        }
    }

    @Test("interactive keys: arrows seek, space toggles, q quits, a left press is a click; other keys, releases and buttons are skipped")
    func keys() {
        let bytes: [UInt8] = Array(
            "\u{1B}[C\u{1B}[D x\u{1B}OCq\u{1B}[<0;12;3M\u{1B}[<0;12;3m\u{1B}[<2;40;3M\u{1B}[<0;1;9M\u{1B}[A".utf8)
        #expect(SimulationKeyboard.parse(bytes) == [
            .forward, .back, .togglePause, .forward, .quit, .click(column: 11), .click(column: 0),
        ])
    }
}
