import CheckEngine
import Foundation
import PlaybackModel
import Yams

/// `serve --config.file`: named modules, as the blackbox exporter's configuration has them. Parsed once,
/// strictly: an unknown key, a value of the wrong kind, a bad duration, regular expression or header is an
/// error whose sentence names the module and the key, so `--config.check` catches it before a reload.
///
/// ```yaml
/// modules:
///   hls_live:
///     timeout: 5s
///     duration: 20s
///     max_startup: 3s
///     max_stalls: 1
///     max_rebuffer_ratio: 1%
///     max_latency: 10s
///     min_realtime_factor: 0.9
///     policy: {start_threshold: 1s, resume_threshold: 2s, max_buffer: 30s}
///     player: exoplayer
///     headers: ["Authorization: Bearer abc"]
///     user_agent: my-probe/1.0
///     allow_targets: ['https://cdn\.example\.net/live/.*']
///     cmcd: {mode: headers, content_id: live-1}
/// ```
package struct ExporterConfig: Sendable {
    /// The modules by name.
    package var modules: [String: ProbeModule]

    /// The keys a module takes.
    package static let moduleKeys = [
        "timeout", "duration", "max_startup", "max_stalls", "max_stall_time", "max_rebuffer_ratio", "max_latency", "max_drift",
        "min_realtime_factor", "max_peak_over_bandwidth", "max_hole", "max_origin_faults", "policy", "player", "headers", "user_agent", "allow_targets", "cmcd",
        "validate",
    ]
    /// The keys of a module's `policy`.
    package static let policyKeys = ["start_threshold", "resume_threshold", "max_buffer"]
    /// The most modules one file may name (a configuration, not a database).
    package static let mostModules = 1000

    /// No modules: every request uses `ProbeModule.builtIn`.
    package init(modules: [String: ProbeModule] = [:]) { self.modules = modules }

    /// The module `name` names; `nil` (no `module=`) is the file's `default` module if it has one, else
    /// `ProbeModule.builtIn`; an unknown name is `nil`.
    package func module(named name: String?) -> ProbeModule? {
        guard let name else { return modules["default"] ?? .builtIn }
        return modules[name] ?? (name == "default" ? .builtIn : nil)
    }

    /// Reads and parses the file at `path`.
    package static func load(path: String) throws(ExporterConfigError) -> ExporterConfig {
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 1 << 20 else { throw ExporterConfigError("\(path) is larger than 1 MiB.") }
            text = String(decoding: data, as: UTF8.self)
        } catch let error as ExporterConfigError {
            throw error
        } catch {
            throw ExporterConfigError("cannot read \(path): \((error as NSError).localizedDescription)")
        }
        do { return try parse(text) } catch { throw ExporterConfigError("\(path): \(error.sentence)") }
    }

    /// Parses the YAML text of a configuration file.
    package static func parse(_ text: String) throws(ExporterConfigError) -> ExporterConfig {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw ExporterConfigError("it is not YAML: \(error)") }
        guard let root else { return ExporterConfig() }
        guard let top = root.mapping else { throw ExporterConfigError("the file must be a mapping with the key modules.") }
        var modules: [String: ProbeModule] = [:]
        for (key, value) in top {
            guard key.string == "modules" else {
                throw ExporterConfigError("unknown key '\(key.string ?? "?")' at the top; the file takes modules.")
            }
            if value.null != nil { continue }
            guard let mapping = value.mapping else { throw ExporterConfigError("modules must be a mapping of module names.") }
            guard mapping.count <= mostModules else { throw ExporterConfigError("more than \(mostModules) modules.") }
            for (nameNode, body) in mapping {
                guard let name = nameNode.string, Self.isName(name) else {
                    throw ExporterConfigError("a module name must be letters, digits, '_' or '-' (at most 64), got '\(nameNode.string ?? "?")'.")
                }
                do { modules[name] = try module(name, body) } catch { throw ExporterConfigError("module \(name): \(error.sentence)") }
            }
        }
        return ExporterConfig(modules: modules)
    }

    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
    }

    private static func module(_ name: String, _ node: Node) throws(ExporterConfigError) -> ProbeModule {
        var module = ProbeModule(name: name)
        if node.null != nil { return module }
        guard let mapping = node.mapping else { throw ExporterConfigError("it must be a mapping of settings.") }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? "?"
            switch key {
            case "timeout": module.timeout = try seconds(value, key)
            case "duration": module.duration = try seconds(value, key)
            case "max_startup": module.maxStartup = try seconds(value, key)
            case "max_stalls", "max_rebuffer_ratio", "min_realtime_factor", "max_peak_over_bandwidth", "max_origin_faults":
                guard let text = value.scalar?.string else { throw ExporterConfigError("\(key) must be a single value.") }
                do {
                    if key == "max_stalls" {
                        module.thresholds[.maxStalls] = Double(try VerdictThresholds.count(parsing: text))
                    } else if key == "min_realtime_factor" {
                        module.thresholds[.minRealtimeFactor] = try VerdictThresholds.factor(parsing: text)
                    } else if key == "max_origin_faults" {
                        module.thresholds[.maxOriginFaults] = try VerdictThresholds.faults(parsing: text).map(Double.init) ?? .infinity
                    } else if key == "max_peak_over_bandwidth" {
                        module.thresholds[.maxPeakOverBandwidth] = try VerdictThresholds.excess(parsing: text)
                    } else {
                        module.thresholds[.maxRebufferRatio] = try VerdictThresholds.ratio(parsing: text)
                    }
                } catch { throw ExporterConfigError("\(key): \(error)") }
            case "max_stall_time": module.thresholds[.maxStallTime] = try seconds(value, key)
            case "max_latency": module.thresholds[.maxLatency] = try seconds(value, key)
            case "max_drift": module.thresholds[.maxDrift] = try seconds(value, key)
            case "max_hole": module.thresholds[.maxHole] = value.scalar?.string == "none" ? .infinity : try seconds(value, key)
            case "player":
                let text = try string(value, key)
                guard let preset = PlayerPreset(name: text) else {
                    throw ExporterConfigError("player: '\(text.prefix(64))' is not a player bufprobe knows; use one of \(PlayerPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                module.player = preset
            case "validate":
                switch value.scalar?.string {
                case "true": module.validate = true
                case "false": module.validate = false
                default: throw ExporterConfigError("validate takes true or false.")
                }
            case "user_agent": module.userAgent = try headerValue(string(value, key), key)
            case "headers":
                for header in try strings(value, key) {
                    guard CheckSettings.isHeader(header) else {
                        throw ExporterConfigError("headers takes 'Name: value' strings, got '\(header.prefix(64))'.")
                    }
                    module.headers.append(try headerValue(header, key))
                }
            case "allow_targets":
                module.allowTargets = try strings(value, key)
                do { module.allowList = try TargetPolicy(patterns: module.allowTargets) } catch {
                    throw ExporterConfigError("allow_targets: \(error.description)")
                }
            case "policy":
                guard let policy = value.mapping else { throw ExporterConfigError("policy must be a mapping (\(policyKeys.joined(separator: ", "))).") }
                for (policyKey, policyValue) in policy {
                    switch policyKey.string {
                    case "start_threshold": module.startThreshold = try seconds(policyValue, "start_threshold")
                    case "resume_threshold": module.resumeThreshold = try seconds(policyValue, "resume_threshold")
                    case "max_buffer": module.maxBuffer = try seconds(policyValue, "max_buffer")
                    default:
                        throw ExporterConfigError("policy takes \(policyKeys.joined(separator: ", ")), not '\(policyKey.string ?? "?")'.")
                    }
                }
            case "cmcd":
                guard let cmcd = value.mapping else { throw ExporterConfigError("cmcd must be a mapping (mode, content_id).") }
                for (cmcdKey, cmcdValue) in cmcd {
                    switch cmcdKey.string {
                    case "mode":
                        let text = try string(cmcdValue, "cmcd.mode")
                        guard let mode = CMCD.Mode(rawValue: text) else { throw ExporterConfigError("cmcd.mode takes query or headers, got '\(text.prefix(64))'.") }
                        module.cmcd = mode
                    case "content_id":
                        let id = try headerValue(string(cmcdValue, "cmcd.content_id"), "cmcd.content_id")
                        guard id.count <= CMCD.longestString else {
                            throw ExporterConfigError("cmcd.content_id takes at most \(CMCD.longestString) characters.")
                        }
                        module.cmcdContentID = id
                    default: throw ExporterConfigError("cmcd takes mode and content_id, not '\(cmcdKey.string ?? "?")'.")
                    }
                }
                if module.cmcd == nil { throw ExporterConfigError("cmcd needs a mode (query or headers).") }
            default:
                throw ExporterConfigError("unknown key '\(key.prefix(64))'; a module takes \(moduleKeys.joined(separator: ", ")).")
            }
        }
        // Known only once every key is read: the preset is the base the policy keys override, in any order.
        do { try module.policy.validate() } catch { throw ExporterConfigError("policy: \(error)") }
        return module
    }

    private static func string(_ node: Node, _ key: String) throws(ExporterConfigError) -> String {
        guard node.scalar != nil, let text = node.string else { throw ExporterConfigError("\(key) must be a string.") }
        return text
    }

    private static func strings(_ node: Node, _ key: String) throws(ExporterConfigError) -> [String] {
        guard let sequence = node.sequence else { throw ExporterConfigError("\(key) must be a list of strings.") }
        var texts: [String] = []
        for item in sequence { texts.append(try string(item, key)) }
        return texts
    }

    /// A value sent in a request header: no control characters (a line break would forge headers).
    private static func headerValue(_ text: String, _ key: String) throws(ExporterConfigError) -> String {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ExporterConfigError("\(key) must not contain control characters or line breaks.")
        }
        return text
    }

    /// A duration in check's grammar (`5s`, `250ms`, a bare number of seconds), above 0 and finite.
    private static func seconds(_ node: Node, _ key: String) throws(ExporterConfigError) -> Double {
        guard let text = node.scalar?.string else { throw ExporterConfigError("\(key) must be a duration such as 5s.") }
        let value: Seconds
        do { value = try Seconds(parsing: text) } catch { throw ExporterConfigError("\(key): \(error)") }
        guard value.value.isFinite, value.value >= 0, value.value <= 3600 else {
            throw ExporterConfigError("\(key) must be between 0 and 3600 seconds, got \(text.prefix(64)).")
        }
        return value.value
    }
}

/// A configuration file that cannot be used: one sentence.
package struct ExporterConfigError: Error, CustomStringConvertible {
    /// The sentence, ending with a period.
    package var sentence: String

    /// An error saying `sentence` (a period is added when missing).
    package init(_ sentence: String) { self.sentence = sentence.hasSuffix(".") ? sentence : sentence + "." }

    /// The sentence.
    package var description: String { sentence }
}
