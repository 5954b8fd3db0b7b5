import Foundation
package import PlaybackModel

/// Reads a bandwidth trace file in either research format: Sabre's JSON list of
/// `{"duration_ms", "bandwidth_kbps", "latency_ms"}` objects (detected by a leading `[`), or the
/// two-column `seconds Mbit/s` text of Pensieve and the FCC/HSDPA datasets (with an optional third column,
/// `latency_ms`, as `check --record-trace` writes it).
package enum SimulationTraceFile {
    /// One Sabre trace entry.
    private struct SabreStep: Decodable {
        var duration_ms: Double
        var bandwidth_kbps: Double
        var latency_ms: Double?
    }

    /// Loads the trace at `path`; the error is one sentence naming the file.
    package static func load(_ path: String) throws(SimulationTraceFile.Failure) -> NetworkTrace {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: BoundedFile.traceLimit)
        } catch .tooLarge(let limit) {
            throw Failure(sentence: "the trace \(path) is larger than \(BoundedFile.describe(limit)), the most a trace may be.")
        } catch {
            throw Failure(sentence: "the trace \(path) cannot be read (check the path).")
        }
        let text = String(decoding: data, as: UTF8.self)
        let isJSON = text.first { !$0.isWhitespace } == "["
        do {
            if isJSON {
                let steps: [SabreStep]
                do {
                    steps = try JSONDecoder().decode([SabreStep].self, from: data)
                } catch {
                    throw Failure(
                        sentence: "the trace \(path) is not a Sabre JSON list of {duration_ms, bandwidth_kbps, latency_ms} objects.")
                }
                return try NetworkTrace(
                    steps: steps.map {
                        NetworkTrace.Step(
                            duration: $0.duration_ms / 1000, bitsPerSecond: $0.bandwidth_kbps * 1000,
                            latency: $0.latency_ms.map { $0 / 1000 })
                    })
            }
            return try NetworkTrace.parseColumns(text)
        } catch let error as NetworkTraceError {
            throw Failure(sentence: "the trace \(path) is not usable: \(error.reason).")
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(sentence: "the trace \(path) is not usable.")
        }
    }

    /// A trace file that could not be used.
    package struct Failure: Error, Sendable {
        /// One sentence naming the file.
        package var sentence: String
    }
}
