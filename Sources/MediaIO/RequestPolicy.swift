import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which URLs a check may request, beyond the protocol whitelist: the one rule for every request made for
/// an input — the input itself, what FFmpeg's demuxers open through the resource gate (variants, segments,
/// keys, init sections, renditions, DASH `BaseURL`s and templates), bufprobe's own playlist and variant
/// reads (`ResourceReader`), and every HTTP redirect of any of them (followed by bufprobe, one hop at a
/// time, each hop checked before it is requested).
///
/// - `admits`: an allow-list (`serve --allow-target`), asked with the URL as it would be requested,
///   without FFmpeg's `crypto+`/`crypto:` and `hls+` prefixes. The input itself is matched by the caller
///   before the check starts; its redirects are matched here.
/// - `denyPrivate`: refuses a URL whose host resolves to any loopback, private, link-local (cloud metadata
///   `169.254.169.254`), unspecified, shared (`100.64.0.0/10`) or multicast address, IPv4 or IPv6
///   (`PrivateAddress`). The name is resolved here and again by FFmpeg when it connects: a name whose answer
///   changes in between (DNS rebinding) is beyond a check in user space; a firewall must stop that.
public struct RequestPolicy: Sendable {
    /// Why a request was refused: the `reason` label of `bufprobe_refused_requests`.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// No allow-list pattern matches the URL.
        case notAllowed = "not_allowed"
        /// Its host resolves to a private address and `denyPrivate` is on.
        case privateAddress = "private_address"
    }

    /// The allow-list, `nil` for none (every URL is allowed).
    public var admits: (@Sendable (String) -> Bool)?
    /// Whether private addresses are refused.
    public var denyPrivate: Bool

    /// The most redirects followed for one request (FFmpeg's own default).
    public static let maxRedirects = 8

    /// A policy; `nil` results where nothing is checked (`isActive` is false).
    public init(admits: (@Sendable (String) -> Bool)? = nil, denyPrivate: Bool = false) {
        self.admits = admits
        self.denyPrivate = denyPrivate
    }

    /// Whether anything is checked at all.
    public var isActive: Bool { admits != nil || denyPrivate }

    /// `nil` when `url` may be requested, else why not (the reason and a clause completing "which ...").
    /// `matchingAllowList: false` skips the allow-list (the input itself, matched by the caller).
    public func refusal(for url: String, matchingAllowList: Bool = true) -> (reason: Reason, why: String)? {
        let plain = Self.requested(url)
        // data: carries its bytes in the URL: nothing is requested.
        if plain.lowercased().hasPrefix("data:") { return nil }
        if matchingAllowList, let admits, !admits(plain) {
            return (.notAllowed, "matches no allow-list pattern (serve's --allow-target, a module's allow_targets), so it was refused")
        }
        if denyPrivate, let host = Self.host(of: plain) {
            if let address = PrivateAddress.firstPrivate(resolving: host) {
                let named = address == host ? address : "\(host), which resolves to \(address)"
                return (.privateAddress, "is a loopback, private or link-local address (\(named)), which --deny-private refuses")
            }
        }
        return nil
    }

    /// `url` without FFmpeg's wrapping protocols (`crypto+`, `crypto:`, `hls+`, `hls:`): what is requested.
    /// The one place those prefixes are known.
    package static func requested(_ url: String) -> String {
        var rest = Substring(url)
        var stripped = true
        while stripped {
            stripped = false
            for prefix in ["crypto+", "crypto:", "hls+", "hls:"] where rest.lowercased().hasPrefix(prefix) {
                rest = rest.dropFirst(prefix.count)
                stripped = true
            }
        }
        return String(rest)
    }

    /// The host of a `scheme://[user@]host[:port]/...` URL, without IPv6 brackets; `nil` when it has none.
    static func host(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        var authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = authority[authority.index(after: authority.startIndex)..<close]
            return host.isEmpty ? nil : String(host).removingPercentEncoding ?? String(host)
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : (String(host).removingPercentEncoding ?? String(host))
    }
}
