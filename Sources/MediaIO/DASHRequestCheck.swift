import Foundation

/// Under a `RequestPolicy`, a DASH manifest is read by bufprobe first and every URL it can make FFmpeg's
/// `dash` demuxer fetch is checked before FFmpeg opens anything.
///
/// FFmpeg 5.1's DASH demuxer reads the manifest through `io_open` (the resource gate: the URL and each
/// redirect checked) but opens init sections and segments, and reloads a live manifest, with `avio_open2`
/// itself, past `io_open`. So the manifest is read here through `ResourceReader` (the same policy,
/// redirects checked hop by hop) and parsed with `DASHManifest`; the URLs checked are the initialization
/// and every segment of every representation (templates expanded, segment lists, single files), with every
/// `BaseURL` above them applied and resolved against where the manifest was read from (its last redirect),
/// plus every `BaseURL` and `Location` element anywhere in the manifest. A refused URL is recorded with
/// `Interrupter.refuse` (the warning and `bufprobe_refused_requests`) and nothing more is requested.
///
/// What FFmpeg then requests that this parser did not foresee (its own reading of the same manifest) is
/// still checked: `MediaInput(dashChecked: true)` makes the gate check every HTTP request FFmpeg sends,
/// redirects included, where it is written. A live (`dynamic`) manifest is refused: its later versions, which
/// FFmpeg reloads by itself, could not be checked first.
package enum DASHRequestCheck {
    /// What the check found.
    package enum Outcome: Sendable, Equatable {
        /// Every URL is allowed: FFmpeg may read the manifest (`MediaInput(dashChecked: true)`), from the bytes
        /// read here (`manifest`, `nil` without a policy), so that it is requested once. `urls` is how many
        /// distinct URLs were checked.
        case allowed(urls: Int, manifest: PrefetchedInput?)
        /// `url` is refused, and was recorded with `Interrupter.refuse`; `why` completes "which ...".
        case refused(url: String, why: String)
        /// The manifest was not read or cannot be vouched for: a sentence naming the input.
        case unusable(String)
    }

    /// Reads the manifest at `url` (what FFmpeg would open for `source`) with protocol `options` through
    /// `interrupter` (whose `policy` must be active) and checks every URL it leads to.
    package static func check(
        manifest url: String, source: String, options: [String: String], interrupter: Interrupter
    ) -> Outcome {
        guard let policy = interrupter.policy else { return .allowed(urls: 0, manifest: nil) }
        let prefetched: PrefetchedInput
        do {
            prefetched = try PrefetchedInput.read(url: url, demuxer: "dash", options: options, interrupter: interrupter)
        } catch let error as FFmpegError {
            // A refused redirect is recorded already, with its URL.
            if error.code == -EACCES, let refused = interrupter.skipped.last(where: { $0.kind == .refused }) {
                return .refused(url: refused.url, why: refused.why)
            }
            return .unusable("\(source) could not be read as a DASH manifest (\(error.message)).")
        } catch {
            return .unusable("\(source) could not be read as a DASH manifest (it is larger than \(ResourceLimits.playlistBytes >> 20) MiB).")
        }
        let bytes = prefetched.bytes
        let location = prefetched.location
        let root: DASHManifest.Root
        do {
            root = try DASHManifest.root(bytes)
        } catch {
            return .unusable("\(source) was not read: it is named like a DASH manifest but is not one bufprobe can read (not well-formed XML), and under a request policy (--deny-private, serve --allow-target) every URL a DASH manifest leads to is checked before FFmpeg opens it.")
        }
        if case .mpd(let mpd) = root, mpd.attributes["type"] == "dynamic" {
            return .unusable("\(source) was not read: it is a live (dynamic) DASH manifest, which a request policy (--deny-private, serve --allow-target) refuses, since FFmpeg 5.1 reloads it by itself and the URLs of its later versions could not be checked first.")
        }
        let manifest: DASHManifest
        let mpd: XMLTree.Element
        do {
            mpd = try root.mpd()
            manifest = try DASHManifest.parse(mpd: mpd)
        } catch {
            return .unusable("\(source) was not read: bufprobe could not work out every URL its DASH manifest leads to (it \(error.reason)), which a request policy (--deny-private, serve --allow-target) needs before FFmpeg requests any.")
        }
        let urls = requestedURLs(manifest, mpd: mpd, location: location)
        var privateHosts: [String: (reason: RequestPolicy.Reason, why: String)?] = [:]
        let allowList = RequestPolicy(admits: policy.admits)
        for candidate in urls {
            var refusal: (reason: RequestPolicy.Reason, why: String)?
            if let why = interrupter.whitelist?.refusal(for: candidate) {
                refusal = (.notAllowed, why)
            } else if let refused = allowList.refusal(for: candidate) {
                refusal = refused
            } else if policy.denyPrivate {
                // One resolution per host: a manifest may list a million segments on one server.
                let host = RequestPolicy.host(of: RequestPolicy.requested(candidate)) ?? candidate
                if let known = privateHosts[host] {
                    refusal = known
                } else {
                    let found = RequestPolicy(denyPrivate: true).refusal(for: candidate)
                    privateHosts[host] = .some(found)
                    refusal = found
                }
            }
            if let refusal {
                interrupter.refuse(candidate, reason: refusal.reason, why: refusal.why)
                return .refused(url: candidate, why: refusal.why)
            }
        }
        return .allowed(urls: urls.count, manifest: prefetched)
    }

    /// Every URL `manifest` leads to, absolute, each once, in manifest order: each representation's
    /// initialization and segments (or its one file), then every `BaseURL` and `Location` under `mpd`.
    static func requestedURLs(_ manifest: DASHManifest, mpd: XMLTree.Element, location: String) -> [String] {
        var seen: Set<String> = []
        var urls: [String] = []
        func add(_ url: String) {
            let absolute = URLReference.resolve(url, against: location)
            if seen.insert(absolute).inserted { urls.append(absolute) }
        }
        for set in manifest.adaptationSets {
            for representation in set.representations {
                if let initialization = representation.initialization { add(initialization.url) }
                switch representation.addressing {
                case .listed(let segments):
                    for segment in segments { add(segment.resource.url) }
                case .indexed(let media, _):
                    add(media)
                }
            }
        }
        var pending = [mpd]
        while let element = pending.popLast() {
            if element.name == "BaseURL" || element.name == "Location", !element.text.isEmpty { add(element.text) }
            pending.append(contentsOf: element.children.reversed())
        }
        return urls
    }
}
