import Foundation
import BufprobeOutput

/// `check --record-events` and its replay: the events a check's machine handled, written as JSON lines
/// (docs/record-events.md), and fed back through a new machine in virtual time. A replay with the same
/// source and options gives the recorded run's report byte for byte: the machine reads no clock and does
/// no I/O, and every time in the report is an event's.
package enum CheckReplay {
    /// The format's version, in the first line.
    package static let schemaVersion = 1

    /// The first line: what was checked, with which bufprobe, in which format.
    package struct Header: Sendable, Codable, Equatable {
        /// `schemaVersion` when written.
        package var schemaVersion: Int
        /// The URL or path checked.
        package var source: String
        /// The bufprobe that recorded it (`BufprobeVersion.string`).
        package var bufprobe: String
    }

    /// A recording that could not be read: the line and why, as one sentence.
    package struct Unreadable: Error, CustomStringConvertible {
        /// The sentence.
        package var description: String
    }

    /// The events of a check of `source` as JSON lines: the header, then one event a line.
    package static func lines(_ events: [CheckEvent.Timed], source: String) throws -> String {
        let encoder = Self.encoder()
        var text = String(decoding: try encoder.encode(Header(schemaVersion: schemaVersion, source: source, bufprobe: BufprobeVersion.string)), as: UTF8.self)
        text += "\n"
        for event in events {
            text += String(decoding: try encoder.encode(event), as: UTF8.self)
            text += "\n"
        }
        return text
    }

    /// Reads what `lines(_:source:)` wrote.
    /// - Throws: `Unreadable` naming the line that is not a header or an event.
    package static func read(_ text: String) throws(Unreadable) -> (header: Header, events: [CheckEvent.Timed]) {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var header: Header?
        var events: [CheckEvent.Timed] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do {
                if header == nil {
                    header = try decoder.decode(Header.self, from: Data(line.utf8))
                    guard header?.schemaVersion == schemaVersion else {
                        throw Unreadable(description: "the recording is in format \(header?.schemaVersion ?? 0); this bufprobe reads format \(schemaVersion).")
                    }
                } else {
                    events.append(try decoder.decode(CheckEvent.Timed.self, from: Data(line.utf8)))
                }
            } catch let unreadable as Unreadable {
                throw unreadable
            } catch {
                throw Unreadable(description: "line \(number + 1) of the recording is not a \(header == nil ? "header" : "check event") bufprobe reads (\(error)).")
            }
        }
        guard let header else { throw Unreadable(description: "the recording is empty.") }
        return (header, events)
    }

    /// Feeds `events` through a new machine for `source` with `settings`, in virtual time, and returns its
    /// report (complete when the recording ends with `.closed`).
    package static func report(_ events: [CheckEvent.Timed], source: String, settings: CheckSettings) -> CheckReport {
        var machine = CheckMachine(source: source, settings: settings)
        for event in events { machine.handle(event.event, at: event.at) }
        return machine.report
    }

    /// One JSON object per line, keys as the Swift names (a key converted to snake_case and back would not
    /// always round-trip: `isHLS`), sorted.
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }
}
