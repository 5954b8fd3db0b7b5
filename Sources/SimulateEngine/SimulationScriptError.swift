/// A mistake in a simulation script: one sentence naming the file, the line and the field.
package struct SimulationScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The script's path (or `-` for standard input).
    package var file: String
    /// The 1-based line, when known.
    package var line: Int?
    /// The field path, such as `timeline[2].seek`; empty for the document itself.
    package var field: String
    /// What is wrong, starting with a lowercase word.
    package var reason: String

    /// Creates an error.
    package init(file: String, line: Int?, field: String, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: FIELD: reason.` with a full stop.
    package var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let subject = field.isEmpty ? "" : "\(field): "
        let sentence = reason.hasSuffix(".") || reason.hasSuffix("?") ? reason : reason + "."
        return "\(place): \(subject)\(sentence)"
    }
}
