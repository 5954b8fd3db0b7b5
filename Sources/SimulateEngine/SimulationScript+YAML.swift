import PlaybackModel
import Yams

extension SimulationScript {
    /// The action keys a timeline step may carry (exactly one per step).
    static let actionKeys = ["bandwidth", "outage", "latency", "seek", "pause", "rate", "play"]

    /// Parses a script written in YAML or JSON (JSON is YAML). `file` names the script in errors. Every
    /// mistake is one `SimulationScriptError` naming the line and the field: syntax errors, unknown keys,
    /// values of the wrong shape, bad units, negative times, a step with no or two actions.
    package static func parse(yaml: String, file: String) throws(SimulationScriptError) -> SimulationScript {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: file)
        } catch {
            throw SimulationScriptError(file: file, line: nil, field: "", reason: "is not valid YAML (\(error))")
        }
        var script = SimulationScript()
        guard let root else { return script }
        let reader = Reader(file: file)
        let top = try reader.mapping(
            root, field: "", allowed: ["media", "synthetic", "network", "policy", "autoplay", "timeline"])
        if let node = top["media"] {
            script.media = try reader.string(node, field: "media")
            script.lines["media"] = node.mark?.line
        }
        if let node = top["synthetic"] {
            if script.media != nil {
                throw reader.error(node, "synthetic", "cannot be used together with media; choose one")
            }
            let fields = try reader.mapping(
                node, field: "synthetic", allowed: ["bitrate", "duration", "variation", "seed"])
            guard let bitrate = fields["bitrate"] else {
                throw reader.error(node, "synthetic", "needs a bitrate, such as 3Mbit")
            }
            guard let duration = fields["duration"] else {
                throw reader.error(node, "synthetic", "needs a duration, such as 10m")
            }
            var synthetic = Synthetic(
                bitsPerSecond: try reader.bitRate(bitrate, field: "synthetic.bitrate", media: true),
                duration: try reader.duration(duration, field: "synthetic.duration", positive: true))
            if let node = fields["variation"] {
                let value = try reader.number(node, field: "synthetic.variation")
                guard value >= 0, value <= 1 else {
                    throw reader.error(node, "synthetic.variation", "must be between 0 and 1")
                }
                synthetic.variation = value
            }
            if let node = fields["seed"] {
                let text = try reader.string(node, field: "synthetic.seed")
                guard let seed = UInt64(text) else {
                    throw reader.error(node, "synthetic.seed", "'\(text)' is not a whole number of 0 or more")
                }
                synthetic.seed = seed
            }
            script.synthetic = synthetic
        }
        if let node = top["network"] {
            let fields = try reader.mapping(
                node, field: "network", allowed: ["bandwidth", "latency", "trace", "constrained"])
            if let node = fields["bandwidth"] { script.bandwidth = try reader.bitRate(node, field: "network.bandwidth") }
            if let node = fields["latency"] { script.latency = try reader.duration(node, field: "network.latency") }
            if let node = fields["trace"] {
                script.trace = try reader.string(node, field: "network.trace")
                script.lines["network.trace"] = node.mark?.line
            }
            if let node = fields["constrained"] {
                guard let value = node.bool else {
                    throw reader.error(node, "network.constrained", "must be true or false")
                }
                script.constrained = value
            }
            if script.bandwidth != nil, let node = fields["trace"] {
                throw reader.error(node, "network.trace", "cannot be used together with network.bandwidth; choose one")
            }
        }
        if let node = top["policy"] {
            let fields = try reader.mapping(
                node, field: "policy", allowed: ["start", "resume", "max_buffer", "back_buffer"])
            if let node = fields["start"] { script.startThreshold = try reader.duration(node, field: "policy.start") }
            if let node = fields["resume"] { script.resumeThreshold = try reader.duration(node, field: "policy.resume") }
            if let node = fields["max_buffer"] { script.maxBuffer = try reader.duration(node, field: "policy.max_buffer") }
            if let node = fields["back_buffer"] {
                script.backBuffer = try reader.duration(node, field: "policy.back_buffer")
            }
        }
        if let node = top["autoplay"] {
            guard let value = node.bool else { throw reader.error(node, "autoplay", "must be true or false") }
            script.autoplay = value
        }
        if let node = top["timeline"] {
            guard let sequence = node.sequence else {
                throw reader.error(node, "timeline", "must be a list of steps such as '- { at: 30s, bandwidth: 500kbit }'")
            }
            for (index, item) in sequence.enumerated() {
                script.timeline.append(try reader.step(item, field: "timeline[\(index)]"))
            }
        }
        return script
    }

    private static func syntaxError(_ error: YamlError, file: String) -> SimulationScriptError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return SimulationScriptError(file: file, line: mark.line, field: "", reason: "is not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return SimulationScriptError(
                file: file, line: context.mark.line, field: "",
                reason: "repeats the key '\(duplicates.joined(separator: "', '"))'; each key may appear once")
        default:
            return SimulationScriptError(file: file, line: nil, field: "", reason: "is not valid YAML (\(error))")
        }
    }
}

/// Reads script nodes into values, turning every mismatch into an error with the node's line.
private struct Reader {
    let file: String

    func error(_ node: Node, _ field: String, _ reason: String) -> SimulationScriptError {
        SimulationScriptError(file: file, line: node.mark?.line, field: field, reason: reason)
    }

    /// The mapping's values by key, rejecting keys not in `allowed` and keys that are not plain words.
    func mapping(_ node: Node, field: String, allowed: [String]) throws(SimulationScriptError) -> [String: Node] {
        guard let mapping = node.mapping else {
            let reason =
                field.isEmpty
                ? "must be a mapping of keys such as 'media:' and 'timeline:'"
                : "must be a mapping of keys (\(allowed.joined(separator: ", ")))"
            throw SimulationScriptError(file: file, line: node.mark?.line, field: field, reason: reason)
        }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                throw error(key, field, "has a key that is not a plain word")
            }
            let path = field.isEmpty ? name : "\(field).\(name)"
            guard allowed.contains(name) else {
                throw error(key, path, "unknown key '\(name)'; expected one of \(allowed.joined(separator: ", "))")
            }
            result[name] = value
        }
        return result
    }

    func string(_ node: Node, field: String) throws(SimulationScriptError) -> String {
        guard let scalar = node.scalar, !scalar.string.isEmpty else {
            throw error(node, field, "must be a single value, not a list or a mapping")
        }
        return scalar.string
    }

    func duration(_ node: Node, field: String, positive: Bool = false) throws(SimulationScriptError) -> Double {
        let text = try string(node, field: field)
        let value: Double
        do {
            value = try Seconds(parsing: text).value
        } catch {
            throw self.error(node, field, error.description)
        }
        if positive, value <= 0 { throw self.error(node, field, "'\(text)' must be greater than 0") }
        return value
    }

    /// A rate as meant (`BitRate(parsingAsMeant:zero:)`): a bandwidth, or with `media` a media's bit rate.
    func bitRate(_ node: Node, field: String, media: Bool = false) throws(SimulationScriptError) -> Double {
        let text = try string(node, field: field)
        do {
            return try BitRate(parsingAsMeant: text, zero: media ? BitRate.zeroMediaBitRate : BitRate.zeroBandwidth).bitsPerSecond
        } catch {
            throw self.error(node, field, error.description)
        }
    }

    func number(_ node: Node, field: String) throws(SimulationScriptError) -> Double {
        let text = try string(node, field: field)
        guard let value = Double(text), value.isFinite else {
            throw error(node, field, "'\(text)' is not a number")
        }
        return value
    }

    func positiveNumber(_ node: Node, field: String) throws(SimulationScriptError) -> Double {
        let text = try string(node, field: field)
        do {
            return try Factor(parsing: text).value
        } catch {
            throw self.error(node, field, error.description)
        }
    }

    func step(_ node: Node, field: String) throws(SimulationScriptError) -> SimulationScript.LocatedStep {
        let fields = try mapping(node, field: field, allowed: ["at"] + SimulationScript.actionKeys)
        guard let atNode = fields["at"] else {
            throw error(node, field, "needs 'at', the session time of the step, such as 'at: 30s'")
        }
        let time = try duration(atNode, field: "\(field).at")
        let actions = SimulationScript.actionKeys.filter { fields[$0] != nil }
        guard actions.count == 1, let key = actions.first, let valueNode = fields[key] else {
            let reason =
                actions.isEmpty
                ? "needs one action: \(SimulationScript.actionKeys.joined(separator: ", "))"
                : "has \(actions.count) actions (\(actions.joined(separator: ", "))); write one step per action"
            throw error(node, field, reason)
        }
        let path = "\(field).\(key)"
        let action: SimulationStep.Action
        switch key {
        case "bandwidth": action = .bandwidth(try bitRate(valueNode, field: path))
        case "outage": action = .outage(try duration(valueNode, field: path, positive: true))
        case "latency": action = .latency(try duration(valueNode, field: path))
        case "seek": action = .seek(try duration(valueNode, field: path))
        case "pause": action = .pause(try duration(valueNode, field: path, positive: true))
        case "play":
            // `- { at: 5s, play }` leaves the value empty; `play: true` reads better in block style.
            guard valueNode.null != nil || valueNode.bool == true else {
                throw error(valueNode, path, "takes no value (write '{ at: 5s, play }' or 'play: true')")
            }
            action = .play
        default: action = .rate(try positiveNumber(valueNode, field: path))
        }
        return SimulationScript.LocatedStep(
            step: SimulationStep(time: time, action: action), line: valueNode.mark?.line ?? node.mark?.line ?? 0,
            field: path)
    }
}
