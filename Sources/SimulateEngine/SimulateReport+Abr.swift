package import PlaybackModel
package import BufprobeOutput

extension SimulateReport {
    /// The `abr` object of the JSON document.
    package struct Abr: Sendable, Codable, Hashable {
        /// `fixed`, `throughput`, `bola` or `dynamic`.
        package var rule: String
        /// The rule's parameters (all of them, whichever rule ran).
        package var parameters: Parameters
        /// Per variant, ascending by bit rate.
        package var variants: [VariantUse]
        /// Whether `--abandon` was on.
        package var abandon: Bool
        /// Segment requests abandoned for a lower variant.
        package var abandoned: Int
        /// Number of switches.
        package var switchCount: Int
        /// Every switch.
        package var switches: [Switch]
        /// Mean declared bit rate over the media time played, bits per second.
        package var averageBitRate: Double
        /// The linear QoE.
        package var qoe: QoE
        /// A player's own model (`--player` without `--abr`): its configuration values by name; absent for
        /// bufprobe's rules.
        package var model: [String: Double]?

        /// Rule parameters.
        package struct Parameters: Sendable, Codable, Hashable {
            /// The fixed variant (master playlist index), or `null` for adaptive rules.
            @NullEncoded package var variant: Int?
            /// Throughput safety factor.
            package var safetyFactor: Double
            /// Throughput window, segments.
            package var window: Int
            /// BOLA buffer size used, seconds (`--bola-target`, at most `max_buffer` plus a segment).
            package var bolaBufferTarget: Double
            /// `sliding` or `ewma`.
            package var estimator: String
            /// EWMA half-lives, seconds (empty for `sliding`).
            package var ewmaHalfLives: [Double]
            /// Sabre's insufficient-buffer rule on (throughput side).
            package var insufficientBufferRule: Bool
            /// `u` (BOLA-U) or `basic`.
            package var bolaVariant: String
            /// BOLA gamma*p.
            package var bolaGammaP: Double
            /// DYNAMIC: buffer seconds to turn BOLA on.
            package var dynamicSwitchOn: Double
            /// DYNAMIC: buffer seconds below which throughput returns.
            package var dynamicSwitchOff: Double
        }

        /// One variant's share.
        package struct VariantUse: Sendable, Codable, Hashable {
            /// Index in the master playlist.
            package var variant: Int
            /// Declared bit rate, bits per second.
            package var bitRate: Double
            /// Media seconds played at it.
            package var playedTime: Double
            /// Bytes of the parts played.
            package var playedBytes: Int64
            /// Segments downloaded whole.
            package var segments: Int
            /// Bytes of those segments.
            package var bytes: Int64
        }

        /// One switch.
        package struct Switch: Sendable, Codable, Hashable {
            /// Session time of the request at the new variant, seconds.
            package var time: Double
            /// The segment requested (playlist index).
            package var segment: Int
            /// Variant before (master playlist index).
            package var from: Int
            /// Variant after (master playlist index).
            package var to: Int
            /// Declared bit rate before, bits per second.
            package var fromBitRate: Double
            /// Declared bit rate after, bits per second.
            package var toBitRate: Double
            /// The rule's reason.
            package var reason: String
        }

        /// The QoE score and its terms.
        package struct QoE: Sendable, Codable, Hashable {
            /// The score, kbit/s per segment.
            package var score: Double
            /// The formula.
            package var formula: String
            /// Mean declared bit rate of the played segments, kbit/s.
            package var averageBitRateKbps: Double
            /// Mean switch magnitude per played segment, kbit/s.
            package var switchMagnitudeKbps: Double
            /// Seconds stalled.
            package var stallTime: Double
            /// Segments played.
            package var segments: Int
            /// Lambda.
            package var switchWeight: Double
            /// Mu, kbit/s per stalled second.
            package var stallWeight: Double
        }

        /// Builds the object from the rule run and its summary; figures rounded for stable documents.
        /// `bolaBufferTarget` is the buffer size BOLA worked with (`SimulationEngine.bolaBufferTarget`), when
        /// known; else the rule's.
        package init(
            rule: AbrRule, summary: AbrSummary, abandon: Bool = false, abandoned: Int = 0, bolaBufferTarget: Double? = nil
        ) {
            self.abandon = abandon
            self.abandoned = abandoned
            let round = { (value: Double) in (value * 1000).rounded() / 1000 }
            self.rule = rule.name
            var throughput = AbrRule.Throughput.default
            var bola = AbrRule.Bola.default
            var on = AbrRule.dynamicSwitchLevel
            var off = AbrRule.dynamicSwitchLevel
            var fixed: Int?
            switch rule {
            case .fixed(let variant): fixed = summary.variants.indices.contains(variant) ? summary.variants[variant].label : nil
            case .throughput(let value): throughput = value
            case .bola(let value): bola = value
            case .dynamic(let t, let b, let switchOn, let switchOff):
                throughput = t
                bola = b
                on = switchOn
                off = switchOff
            case .player(let player): model = player.model.parameters
            }
            let estimator = rule.isBolaOnly ? bola.estimator : throughput.estimator
            var halfLives: [Double] = []
            if case .ewma(let values) = estimator { halfLives = values }
            parameters = Parameters(
                variant: fixed, safetyFactor: throughput.safetyFactor, window: throughput.window,
                bolaBufferTarget: bolaBufferTarget ?? bola.bufferTarget,
                estimator: halfLives.isEmpty ? "sliding" : "ewma", ewmaHalfLives: halfLives,
                insufficientBufferRule: throughput.insufficientBufferRule, bolaVariant: bola.variant.rawValue,
                bolaGammaP: bola.gammaP, dynamicSwitchOn: on, dynamicSwitchOff: off)
            variants = summary.variants.map {
                VariantUse(
                    variant: $0.label, bitRate: $0.bitRate, playedTime: JSONOutput.seconds($0.playedTime),
                    playedBytes: $0.playedBytes, segments: $0.segments, bytes: $0.bytes)
            }
            let uses = summary.variants
            switches = summary.switches.compactMap { change in
                guard uses.indices.contains(change.from), uses.indices.contains(change.to) else { return nil }
                return Switch(
                    time: JSONOutput.seconds(change.time), segment: change.segment, from: uses[change.from].label,
                    to: uses[change.to].label, fromBitRate: uses[change.from].bitRate,
                    toBitRate: uses[change.to].bitRate, reason: change.reason)
            }
            switchCount = switches.count
            averageBitRate = round(summary.averageBitRate)
            let terms = summary.qoe
            qoe = QoE(
                score: round(terms.score), formula: AbrSummary.QoE.formula, averageBitRateKbps: round(terms.averageBitRate),
                switchMagnitudeKbps: round(terms.switchMagnitude), stallTime: JSONOutput.seconds(terms.stallTime),
                segments: terms.segments, switchWeight: terms.switchWeight, stallWeight: terms.stallWeight)
        }
    }
}

extension AbrRule {
    /// Whether the rule is BOLA alone (its estimator is BOLA's).
    fileprivate var isBolaOnly: Bool {
        if case .bola = self { return true }
        return false
    }
}
