import ArgumentParser
import CheckEngine
import BufprobeOutput
import Foundation

extension Check {
    /// `--replay-events FILE`: the recorded events fed through the check's machine in virtual time, and the
    /// report printed as a check's is (the same URL and options give the recorded run's report).
    func replay(_ path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            Diagnostics.error("the events could not be read from \(path) (check the path).")
            throw ExitCode(CheckVerdict.fail.exitCode)
        }
        let recorded: (header: CheckReplay.Header, events: [CheckEvent.Timed])
        do {
            recorded = try CheckReplay.read(String(decoding: data, as: UTF8.self))
        } catch {
            Diagnostics.error("\(path) could not be replayed: \(error)")
            throw ExitCode(CheckVerdict.fail.exitCode)
        }
        guard recorded.header.source == inputs[0] else {
            throw ValidationError("\(path) recorded a check of \(recorded.header.source), not of \(inputs[0]): give the same URL.")
        }
        try report([CheckReplay.report(recorded.events, source: inputs[0], settings: makeSettings())], interrupted: nil)
    }
}
