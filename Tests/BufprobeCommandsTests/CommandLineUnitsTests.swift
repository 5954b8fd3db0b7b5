import ArgumentParser
@testable import BufprobeCommands
@testable import CheckEngine
@testable import BufprobeCLI
import Foundation
import PlaybackModel
import Testing
import TestSupport
@testable import SimulateEngine

/// Every duration and rate option of every command (and every script field) reads the one grammar.
@Suite("Command-line units")
struct CommandLineUnitsTests {
    /// The duration forms and their seconds.
    static let durations: [(String, Double)] = [
        ("250ms", 0.25), ("1.5s", 1.5), ("2m", 120), ("1h", 3600), ("1:30", 90), ("90", 90), ("1.5S", 1.5),
    ]
    /// The rate forms and their bits per second.
    static let rates: [(String, Double)] = [
        ("400k", 400_000), ("500kbit", 500_000), ("2Mbit", 2e6), ("2Mbps", 2e6), ("250kB/s", 2e6), ("2MBIT", 2e6),
    ]

    /// A command's option, the arguments it needs besides, and how to read the parsed value back (seconds
    /// or bit/s).
    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var option: String
        var rest: [String]
        var read: @Sendable (any ParsableCommand) -> Double?
        var testDescription: String { "\(command) \(option)" }
    }

    static let durationOptions: [Case] = [
        Case(command: "probe", option: "--latency", rest: ["x"]) { ($0 as? Probe)?.latency.value },
        Case(command: "probe", option: "--plot-startup-delay", rest: ["x"]) { ($0 as? Probe)?.plotStartupDelay.value },
        Case(command: "probe", option: "--timeout", rest: ["x"]) { ($0 as? Probe)?.timeout.value },
        Case(command: "check", option: "--timeout", rest: ["x"]) { ($0 as? Check)?.timeout.value },
        Case(command: "check", option: "--duration", rest: ["x"]) { ($0 as? Check)?.duration?.value },
        Case(command: "check", option: "--max-startup", rest: ["x"]) { ($0 as? Check)?.thresholdOptions.maxStartup.value },
        Case(command: "check", option: "--start-threshold", rest: ["x", "--resume-threshold", "1h", "--max-buffer", "2h"]) {
            ($0 as? Check)?.policyOptions.startThreshold?.value
        },
        Case(command: "check", option: "--resume-threshold", rest: ["x", "--start-threshold", "0", "--max-buffer", "2h"]) {
            ($0 as? Check)?.policyOptions.resumeThreshold?.value
        },
        Case(command: "check", option: "--max-buffer", rest: ["x", "--start-threshold", "0", "--resume-threshold", "0"]) {
            ($0 as? Check)?.policyOptions.maxBuffer?.value
        },
        Case(command: "check", option: "--back-buffer", rest: ["x"]) { ($0 as? Check)?.policyOptions.backBuffer?.value },
        Case(command: "simulate", option: "--duration", rest: ["--bitrate", "1M"]) { ($0 as? Simulate)?.duration?.value },
        Case(command: "simulate", option: "--latency", rest: []) { ($0 as? Simulate)?.latency?.value },
        Case(command: "simulate", option: "--start-threshold", rest: []) {
            ($0 as? Simulate)?.policyOptions.startThreshold?.value
        },
        Case(command: "simulate", option: "--resume-threshold", rest: []) {
            ($0 as? Simulate)?.policyOptions.resumeThreshold?.value
        },
        Case(command: "simulate", option: "--max-buffer", rest: []) { ($0 as? Simulate)?.policyOptions.maxBuffer?.value },
        Case(command: "simulate", option: "--back-buffer", rest: []) { ($0 as? Simulate)?.policyOptions.backBuffer?.value },
    ]

    static let rateOptions: [Case] = [
        Case(command: "check", option: "--rate", rest: ["x"]) { command in
            guard case .bitsPerSecond(let rate)? = (command as? Check)?.rate else { return nil }
            return rate
        },
        Case(command: "check", option: "--variant", rest: ["x"]) { command in
            guard case .bandwidth(let rate)? = (command as? Check)?.variant else { return nil }
            return rate
        },
        Case(command: "simulate", option: "--bitrate", rest: ["--duration", "1m"]) { ($0 as? Simulate)?.bitrate?.bitsPerSecond },
        Case(command: "simulate", option: "--bandwidth", rest: []) { ($0 as? Simulate)?.bandwidth?.bitsPerSecond },
    ]

    @Test("every duration option of every command accepts every duration form", arguments: durationOptions)
    func durationOption(option: Case) throws {
        for (form, seconds) in Self.durations {
            for arguments in [[option.option, form], ["\(option.option)=\(form)"]] {
                let command = try Bufprobe.parseAsRoot([option.command] + arguments + option.rest)
                #expect(option.read(command) == seconds, "\(option.command) \(arguments)")
            }
        }
    }

    @Test("every rate option of every command accepts every rate form", arguments: rateOptions)
    func rateOption(option: Case) throws {
        for (form, bitsPerSecond) in Self.rates {
            for arguments in [[option.option, form], ["\(option.option)=\(form)"]] {
                let command = try Bufprobe.parseAsRoot([option.command] + arguments + option.rest)
                #expect(option.read(command) == bitsPerSecond, "\(option.command) \(arguments)")
            }
        }
    }

    @Test(
        "a negative value, spaced or after =, is one sentence naming the option and the accepted forms",
        arguments: durationOptions + rateOptions)
    func negative(option: Case) {
        for arguments in [[option.option, "-1"], ["\(option.option)=-1"]] {
            let sentence = Self.usageSentence([option.command] + arguments + option.rest)
            #expect(sentence?.hasPrefix("\(option.option): '-1' must not be negative; expected a ") == true, "\(sentence ?? "parsed")")
        }
    }

    @Test(
        "numbers out of range are refused with a sentence naming the option",
        arguments: [
            (["simulate", "--bitrate", "1e19", "--duration", "1s"], "--bitrate: '1e19' is more than 1 Tbit/s"),
            (["simulate", "--duration", "1e12", "--bitrate", "1M"], "--duration: '1e12' is longer than 7 days"),
            (["simulate", "--bandwidth", "nan"], "--bandwidth: 'nan' is not a rate"),
            (["simulate", "--latency", "inf"], "--latency: 'inf' is not a duration"),
            (["simulate", "--speed", "1e9"], "--speed: '1e9' is more than 1000"),
            (["simulate", "--variation", "2", "--bitrate", "1M", "--duration", "1s"], "--variation must be between 0 and 1"),
            (["check", "--timeout", "0", "x"], "--timeout must be more than 0 seconds"),
            (["check", "--parallel", "100000", "x"], "--parallel must be between 1 and 64"),
            (["check", "--rate", "0", "x"], "--rate: '0' is no rate at all; a pace is above 0"),
            (["probe", "--plot-startup-delay", "0", "x"], "--plot-startup-delay must be more than 0 seconds"),
            (["simulate", "--variant", "-1", "x"], "--variant must be 0 or more"),
            (["simulate", "--variation", "-1", "--bitrate", "1M", "--duration", "1s"], "--variation must be between 0 and 1"),
            (["simulate", "--seed", "-1"], "--seed does not take '-1'"),
            (["check", "--parallel", "-1", "x"], "--parallel must be between 1 and 64"),
        ])
    func outOfRange(arguments: [String], expected: String) {
        let sentence = Self.usageSentence(arguments)
        #expect(sentence?.hasPrefix(expected) == true, "\(sentence ?? "parsed")")
    }

    @Test(
        "script fields read the same grammar and the same bounds, named by file:line: field",
        arguments: [
            ("network: { latency: 1:30 }", nil),
            ("network: { bandwidth: 400k }", nil),
            ("synthetic: { bitrate: 2Mbps, duration: 1e12 }", "s.yaml:1: synthetic.duration: '1e12' is longer than 7 days"),
            ("synthetic: { bitrate: 1e19, duration: 10s }", "s.yaml:1: synthetic.bitrate: '1e19' is more than 1 Tbit/s"),
            ("network: { bandwidth: -1 }", "s.yaml:1: network.bandwidth: '-1' must not be negative"),
            ("timeline:\n  - { at: 1s, rate: 1e9 }", "s.yaml:2: timeline[0].rate: '1e9' is more than 1000"),
            ("timeline:\n  - { at: nan, rate: 1 }", "s.yaml:2: timeline[0].at: 'nan' is not a duration"),
        ] as [(String, String?)])
    func script(yaml: String, expected: String?) {
        do {
            _ = try SimulationScript.parse(yaml: yaml, file: "s.yaml")
            #expect(expected == nil)
        } catch {
            #expect(expected.map { error.description.hasPrefix($0) } == true, "\(error.description)")
        }
    }

    /// The sentence bufprobe prints for `arguments`, or `nil` when they parse.
    static func usageSentence(_ arguments: [String]) -> String? {
        do {
            _ = try Bufprobe.parseAsRoot(arguments)
            return nil
        } catch {
            return UsageError(parserMessage: Bufprobe.message(for: error), usage: "").sentence
        }
    }

    @Test(
        "trace files are held to the same bounds, with a sentence naming the file and step, exit 64",
        arguments: [
            ("[{\"duration_ms\": 1000, \"bandwidth_kbps\": 1e300}]", "json", "step 1 has a bandwidth above 1 Tbit/s"),
            ("[{\"duration_ms\": 1e30, \"bandwidth_kbps\": 1000}]", "json", "step 1 reaches past 7 days"),
            ("[{\"duration_ms\": 1000, \"bandwidth_kbps\": 1000, \"latency_ms\": 1e30}]", "json", "step 1 reaches past 7 days"),
            ("0 1e300\n1 2\n", "txt", "step 1 has a bandwidth above 1 Tbit/s"),
            ("0 1\n1e12 2\n", "txt", "reaches past 7 days"),
        ])
    func traceBounds(content: String, ext: String, expected: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-trace-\(UUID().uuidString).\(ext)")
        try content.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let run = try BufprobeProcess.run(["simulate", "--bitrate", "1M", "--duration", "10s", "--trace", path.path])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("error: the trace \(path.path) is not usable: "), "\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
    }
}
