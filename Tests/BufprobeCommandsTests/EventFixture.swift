@testable import BufprobeCommands
import BufprobeOutput
import CheckEngine
import Foundation
import Testing
import TestSupport

/// A check of a real origin recorded once with `check --json --record-events` (`EventFixtureRecorder`),
/// kept under `Tests/Fixtures/events/`: NAME.jsonl (the events), NAME.json (the run's `--json` document)
/// and NAME.args (the options it ran with, a JSON array). Replayed in virtual time, it gives the live
/// suites' rules in milliseconds.
struct EventFixture {
    /// Where the fixtures are.
    static let directory = BufprobeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/events")

    let name: String
    let header: CheckReplay.Header
    let events: [CheckEvent.Timed]
    /// The recorded run's `--json` document, as it printed it.
    let recorded: String
    let options: [String]

    /// Loads fixture `name`.
    init(_ name: String) throws {
        self.name = name
        let base = Self.directory.appendingPathComponent(name)
        let lines = try String(contentsOf: base.appendingPathExtension("jsonl"), encoding: .utf8)
        (header, events) = try CheckReplay.read(lines)
        recorded = try String(contentsOf: base.appendingPathExtension("json"), encoding: .utf8)
        options = try JSONDecoder().decode([String].self, from: Data(contentsOf: base.appendingPathExtension("args")))
    }

    /// The report the events give under the recorded options, in virtual time.
    func replay() throws -> CheckReport {
        let check = try Check.parse(options + [header.source])
        return CheckReplay.report(events, source: header.source, settings: try check.makeSettings())
    }

    /// The replay's `--json` document, as `check` prints it.
    func replayedJSON() throws -> String { try JSONOutput.string(replay()) + "\n" }

    /// The replay's document, decoded.
    func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(replayedJSON().utf8)) as? [String: Any])
    }

    /// Every fixture's name.
    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }

    /// Records fixture `name`: runs the real binary with `options` on `url` and keeps what it wrote.
    static func record(_ name: String, options: [String], url: String, timeout: Double = 60) throws {
        let base = directory.appendingPathComponent(name)
        let events = base.appendingPathExtension("jsonl").path
        let result = try BufprobeProcess.run(
            ["check", "--json", "--progress", "none", "--record-events", events] + options + [url], timeout: timeout)
        try Data(result.stdout.utf8).write(to: base.appendingPathExtension("json"))
        try JSONEncoder().encode(["--progress", "none"] + options).write(to: base.appendingPathExtension("args"))
    }
}
