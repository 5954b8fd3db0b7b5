package import CheckEngine
import Foundation
import PlaybackModel

/// One `GET /probe` request, parsed and bounded: the target, and the `CheckSettings` its check runs with.
/// Pure (no I/O), so every rule is table-tested.
///
/// No name or value may carry a control character (a percent-encoded NUL, CR, LF...: 400).
/// Parameters (each at most once; any other is refused): `target` (required), `duration`, `timeout`
/// (check's duration grammar: `5s`, `1.5`, `250ms`), `variant` (`best`, `lowest`, a position, a rate),
/// `live_start` (check's `--live-start`: `hold-back`, `edge`, `window-start`, seconds behind the edge),
/// `all_variants` (`true` or `false`: check's `--all-variants`), `player` (check's `--player`: a real player's
/// buffering policy, `PlayerPreset`).
/// The check is bounded by the scrape's own timeout (`X-Prometheus-Scrape-Timeout-Seconds`, else
/// Prometheus's default of 10 s) less a margin, so that the answer arrives before Prometheus gives up:
/// both the sample (`duration`, which defaults to the whole budget) and every wait (`timeout`, default
/// 10 s) are capped at the budget. With `all_variants=true` the validation of every variant follows the
/// sample, so the sample, every wait and the whole validation get a third of the budget each.
package struct ProbeRequest: Sendable {
    /// The URL or path to check, percent-decoded.
    package var target: String
    /// The check's options.
    package var settings: CheckSettings
    /// Seconds the check may take: the scrape timeout less the margin.
    package var budget: Double
    /// The sample's and each wait's cap: the budget, or a third of it with `all_variants=true`.
    package var share: Double
    /// `module=NAME`: the configuration file's module, `nil` for the default.
    package var module: String?
    /// `debug=true`: answer the check's log and settings instead of its metrics.
    package var debug = false
    /// Whether the request gave `timeout` (a module's default then does not apply).
    package var requestedTimeout = false
    /// Whether the request gave `duration`.
    package var requestedDuration = false

    /// The parameters `/probe` takes.
    package static let parameters = ["target", "module", "duration", "timeout", "variant", "all_variants", "player", "live_start", "debug"]
    /// The longest query accepted, bytes (a URL of a few KiB at most; everything longer is hostile).
    package static let longestQuery = 8192
    /// The scrape timeout assumed when the request does not send one (Prometheus's default).
    package static let defaultScrapeTimeout = 10.0
    /// The longest check a request can ask for (through the scrape-timeout header), seconds.
    package static let longestCheck = 120.0
    /// The header Prometheus sends with its scrape timeout in seconds.
    package static let scrapeTimeoutHeader = "X-Prometheus-Scrape-Timeout-Seconds"

    /// Seconds kept back from the scrape timeout for opening, answering and the network: 0.5 s, or a
    /// quarter of a timeout below 2 s.
    package static func margin(forScrapeTimeout timeout: Double) -> Double { min(0.5, timeout / 4) }

    /// Parses the raw query string (`target=...&duration=5s`) and the scrape-timeout header's value.
    package init(query: String?, scrapeTimeout: String?) throws(ProbeRefusal) {
        let query = query ?? ""
        guard query.utf8.count <= Self.longestQuery else {
            throw ProbeRefusal(.uriTooLong, "the query is longer than \(Self.longestQuery) bytes.")
        }
        var values: [String: String] = [:]
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (rawName, rawValue) = piece.firstIndex(of: "=").map { (piece[..<$0], piece[piece.index(after: $0)...]) }
                ?? (piece, "")
            guard let name = Self.decoded(rawName), let value = Self.decoded(rawValue) else {
                throw ProbeRefusal(.badRequest, "the query is not valid percent-encoding.")
            }
            // A NUL would cut the URL FFmpeg receives short of the one the allow-list matched, and control
            // bytes would reach the log line and the info label raw: no parameter may carry one.
            if let control = (name + value).unicodeScalars.first(where: Self.isControl) {
                throw ProbeRefusal(
                    .badRequest,
                    "the parameter \(Self.shortened(Self.visible(name))) contains the control character U+\(String(format: "%04X", control.value)), which no URL or value may carry.")
            }
            guard Self.parameters.contains(name) else {
                throw ProbeRefusal(.badRequest, "/probe takes no parameter '\(Self.shortened(name))'; it takes \(Self.parameterList).")
            }
            guard values[name] == nil else { throw ProbeRefusal(.badRequest, "the parameter \(name) is given twice.") }
            values[name] = value
        }
        guard let target = values["target"], !target.isEmpty else {
            throw ProbeRefusal(.badRequest, "/probe needs a target parameter: /probe?target=URL (percent-encoded).")
        }
        self.target = target

        var timeout = Self.defaultScrapeTimeout
        if let scrapeTimeout {
            guard let seconds = Double(scrapeTimeout.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0 else {
                throw ProbeRefusal(.badRequest, "the \(Self.scrapeTimeoutHeader) header must be a number of seconds above 0, got '\(Self.shortened(scrapeTimeout))'.")
            }
            timeout = min(seconds, Self.longestCheck)
        }
        budget = timeout - Self.margin(forScrapeTimeout: timeout)

        let allVariants: Bool
        switch values["all_variants"] {
        case nil, "false": allVariants = false
        case "true": allVariants = true
        case let other?:
            throw ProbeRefusal(.badRequest, "all_variants takes true or false, got '\(Self.shortened(other))'.")
        }
        // Validating every variant comes after the sample and takes requests of its own.
        let share = allVariants ? budget / 3 : budget
        self.share = share
        module = values["module"]
        switch values["debug"] {
        case nil, "false": debug = false
        case "true": debug = true
        case let other?: throw ProbeRefusal(.badRequest, "debug takes true or false, got '\(Self.shortened(other))'.")
        }
        requestedTimeout = values["timeout"] != nil
        requestedDuration = values["duration"] != nil
        let duration = try Self.seconds(values["duration"], name: "duration")
        let wait = try Self.seconds(values["timeout"], name: "timeout")
        var variant = VariantChoice.best
        if let text = values["variant"] {
            do {
                variant = try VariantChoice.argument(text)
            } catch {
                throw ProbeRefusal(.badRequest, "variant: \(error)")
            }
        }
        var liveStart = LiveStart.holdBack
        if let text = values["live_start"] {
            guard let start = LiveStart(argument: text) else {
                throw ProbeRefusal(.badRequest, "live_start: '\(Self.shortened(text))' is not hold-back, edge, window-start or seconds behind the edge.")
            }
            liveStart = start
        }
        var player: PlayerPreset?
        if let name = values["player"] {
            guard let preset = PlayerPreset(name: name) else {
                throw ProbeRefusal(.badRequest, "player: '\(Self.shortened(name))' is not a player bufprobe knows; use one of \(PlayerPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            player = preset
        }
        do {
            settings = try CheckSettings(
                timeout: Seconds(min(wait ?? CheckSettings().timeout, share)), duration: Seconds(min(duration ?? share, share)),
                player: player, variant: variant, liveStart: liveStart, allVariants: allVariants,
                // The validation itself gets the last third, as a hard bound: a large ladder ends with the
                // variants left unvalidated named in a warning instead of outlasting the scrape.
                allVariantsBudget: allVariants ? Seconds(share) : nil)
        } catch {
            throw ProbeRefusal(.badRequest, error.sentence { value in
                switch value {
                case .timeout: "timeout"
                case .maxStartup: "max_startup"
                case .duration: "duration"
                }
            })
        }
    }

    /// A duration parameter in check's grammar (`CheckSettings` refuses one not above 0).
    private static func seconds(_ text: String?, name: String) throws(ProbeRefusal) -> Double? {
        guard let text else { return nil }
        let value: Seconds
        do { value = try Seconds(parsing: text) } catch { throw ProbeRefusal(.badRequest, "\(name): \(error)") }
        // Above 0 is `CheckSettings`' rule, applied where the settings are made.
        return value.value
    }

    /// Form decoding, as Prometheus encodes `params` (`+` is a space); `nil` for a broken `%` escape.
    private static func decoded(_ text: Substring) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard spaced.contains("%") else { return spaced }
        return spaced.removingPercentEncoding
    }

    /// C0 controls (NUL, tab, CR, LF...), DEL and C1 controls.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with its control characters replaced by `?`, for a sentence.
    private static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    /// At most 64 characters of a name or value from the request, for a sentence.
    private static func shortened(_ text: String) -> String { text.count <= 64 ? text : text.prefix(64) + "…" }

    private static var parameterList: String {
        parameters.dropLast().joined(separator: ", ") + " and " + (parameters.last ?? "")
    }
}
