/// A strict reader of the Prometheus text format, for the tests: every line must be a comment or one sample
/// `name{label="value",...} value`, label values escaped as the format requires; anything else throws.
struct Exposition {
    /// One sample.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var samples: [Sample] = []
    /// `# TYPE` per family.
    var types: [String: String] = [:]

    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var description: String { "not a valid exposition line: \(line)" }
    }

    init(_ text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4 else { throw Malformed(line: String(line)) }
                types[String(parts[2])] = String(parts[3])
                continue
            }
            if line.hasPrefix("# HELP ") { continue }
            samples.append(try Self.sample(Substring(line)))
        }
    }

    /// The value of the one sample named `name` whose labels include `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }?.value
    }

    /// Whether a sample named `name` is present.
    func has(_ name: String) -> Bool { samples.contains { $0.name == name } }

    private static func sample(_ line: Substring) throws -> Sample {
        var rest = line
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        guard let first = name.first, first.isLetter || first == "_" else { throw Malformed(line: String(line)) }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !key.isEmpty else { throw Malformed(line: String(line)) }
                rest = rest.dropFirst(key.count)
                guard rest.hasPrefix("=\"") else { throw Malformed(line: String(line)) }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let character = rest.first else { throw Malformed(line: String(line)) }
                    rest = rest.dropFirst()
                    if character == "\"" { break }
                    if character == "\\" {
                        guard let escaped = rest.first else { throw Malformed(line: String(line)) }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw Malformed(line: String(line))
                        }
                    } else {
                        value.append(character)
                    }
                }
                labels[String(key)] = value
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " ", let value = Double(rest.dropFirst()) else { throw Malformed(line: String(line)) }
        return Sample(name: String(name), labels: labels, value: value)
    }
}
