/// Resolving a reference (a playlist's URI, a manifest's BaseURL or template, a redirect's `Location`)
/// against the location it was read from, which is a URL or a local path: the one rule bufprobe's readers,
/// its redirect checks and the DASH manifest's URLs share.
///
/// RFC 3986's reference forms, without its dot-segment removal (FFmpeg, servers and file systems read
/// `a/../b` the same; keeping it leaves the paths bufprobe prints as the playlist wrote them):
/// - with a scheme (`https://...`): itself;
/// - a network path (`//host/path`): the base's scheme with it, when the base is a URL;
/// - an absolute path (`/path`): the base's scheme and host with it, when the base is a URL; on a local
///   base, itself;
/// - a relative path: the base's directory (its path up to the last `/`, the query and fragment dropped)
///   with it; on a URL with no path (`http://host`), that URL's root; on a base with no `/`, itself.
public enum URLReference {
    /// `reference` made absolute against `base` (see the type's rules).
    public static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        let scheme = base.range(of: "://")
        if reference.hasPrefix("//") {
            guard let scheme else { return reference }
            return String(base[..<scheme.lowerBound]) + ":" + reference
        }
        // The base without its query or fragment: they are not part of its directory.
        let cut = base.firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex
        let location = base[..<cut]
        // Where the base's path begins: after a URL's authority, or at the start of a local path.
        let pathStart = scheme.map { location[$0.upperBound...].firstIndex(of: "/") ?? location.endIndex } ?? location.startIndex
        if reference.hasPrefix("/") {
            return scheme == nil ? reference : String(location[..<pathStart]) + reference
        }
        if scheme != nil, pathStart == location.endIndex { return String(location) + "/" + reference }
        guard let slash = location[pathStart...].lastIndex(of: "/") else { return reference }
        return String(location[...slash]) + reference
    }
}
