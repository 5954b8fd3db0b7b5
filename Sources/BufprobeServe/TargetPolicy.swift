import CheckEngine
package import MediaIO
import InputReading

/// Which targets `serve` probes, so that it is not an open proxy, nor a way to read the server's files:
/// - A network URL (`http`, `https`, `hls+http`, `rtmp`, `srt`...) is probed when no `--allow-target`
///   is given, or when one of the patterns matches the whole URL.
/// - A local file is probed only as `file:/absolute/path`, without `.` or `..` components, and only when
///   a pattern that itself starts with `file:` matches it: a catch-all such as `.*` never opens files.
/// - Every other local input (a plain path, standard input, `pipe:`, `concat:`, `subfile:`, `data:`) and
///   every protocol bufprobe does not read are refused.
/// What a probed input may lead to (its playlists, segments, keys) is MediaIO's `ProtocolWhitelist`, as
/// for `check`: a remote playlist never opens a local file. With patterns or `denyPrivate`, every URL the
/// check requests for the target (variants, segments, keys, renditions, DASH base URLs, every redirect)
/// must pass `requestPolicy` too: a pattern matching it whole, and no private address.
package struct TargetPolicy: Sendable {
    /// One `--allow-target` pattern.
    package struct Pattern: Sendable {
        /// As given.
        package let text: String
        /// Whether it may admit a local file (it starts with `file:`).
        package let admitsFiles: Bool
    }

    /// The patterns; empty admits every network URL.
    package let patterns: [Pattern]
    /// `--deny-private`: refuse every request to a loopback, private or link-local address.
    package var denyPrivate = false

    /// A policy from `--allow-target` values; throws a sentence for a pattern that is not a regular
    /// expression.
    package init(patterns texts: [String]) throws(PatternError) {
        var patterns: [Pattern] = []
        for text in texts {
            do { _ = try Regex(text) } catch { throw PatternError(text: text, problem: "\(error)") }
            let plain = text.hasPrefix("^") ? text.dropFirst() : Substring(text)
            patterns.append(Pattern(text: text, admitsFiles: plain.lowercased().hasPrefix("file:")))
        }
        self.patterns = patterns
    }

    /// An `--allow-target` value that is not a regular expression.
    package struct PatternError: Error, CustomStringConvertible {
        /// The pattern as given.
        package var text: String
        /// The regular-expression parser's words.
        package var problem: String
        /// One sentence.
        package var description: String { "--allow-target '\(text)' is not a regular expression (\(problem))." }
    }

    /// `nil` when `target` may be probed, else the sentence that refuses it (answered 403).
    package func refusal(for target: String) -> String? {
        switch InputKind(target) {
        case .network:
            guard patterns.isEmpty || patterns.contains(where: { matches($0, target) }) else {
                return "\(target) matches no --allow-target pattern of this exporter."
            }
            return nil
        case .file(let path) where target.lowercased().hasPrefix("file:"):
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            guard path.hasPrefix("/"), !components.contains("."), !components.contains("..") else {
                return "\(target) is refused: a file target must be file: and an absolute path without . or .. components."
            }
            guard patterns.contains(where: { $0.admitsFiles && matches($0, target) }) else {
                return "\(target) is a local file, which this exporter probes only when an --allow-target pattern starting with file: matches it."
            }
            return nil
        default:
            return "\(target) is refused: the exporter probes network URLs (http, https, hls+http, rtmp, srt...) and file: URLs an --allow-target pattern admits."
        }
    }

    /// The rule for every URL a check requests for an admitted target (`nil` when nothing is checked):
    /// a network URL one of the patterns matches whole, not resolving to a private address with
    /// `denyPrivate`.
    package var requestPolicy: RequestPolicy? {
        let admits: (@Sendable (String) -> Bool)?
        if patterns.isEmpty {
            admits = nil
        } else {
            let target = self
            admits = { url in target.admits(url) }
        }
        let policy = RequestPolicy(admits: admits, denyPrivate: denyPrivate)
        return policy.isActive ? policy : nil
    }

    /// Whether a URL a probed target leads to matches one of the patterns (every one does without).
    package func admits(_ url: String) -> Bool {
        guard case .network = InputKind(url) else { return false }
        return patterns.isEmpty || patterns.contains { matches($0, url) }
    }

    // Compiled per request: `Regex` is not Sendable, and a few patterns compile in microseconds.
    private func matches(_ pattern: Pattern, _ target: String) -> Bool {
        guard let regex = try? Regex(pattern.text) else { return false }
        return (try? regex.wholeMatch(in: target)) != nil
    }

    /// The startup log's words for the policy.
    package var summary: String {
        guard !patterns.isEmpty else {
            if denyPrivate {
                return "every network target is allowed (no --allow-target) except loopback, private and link-local addresses (--deny-private); local files are refused"
            }
            return "every network target is allowed (no --allow-target): anyone who can reach this port can make it fetch any URL; local files are refused"
        }
        let files = patterns.contains(where: \.admitsFiles) ? "" : "; local files are refused"
        let addresses = denyPrivate ? "; private addresses are refused (--deny-private)" : ""
        return "targets must match one of \(patterns.count) --allow-target pattern\(patterns.count == 1 ? "" : "s"), and so must every URL they lead to (redirects included)\(files)\(addresses)"
    }
}
