/// What bufprobe adds to one request FFmpeg makes for a remote input, beside what the input's options
/// already carry (CMCD's per-request keys, CTA-5004): a query argument and request header lines. Handed to
/// `MediaInput` as a function of the URL, which the resource gate calls for every open but the input's first
/// (whose URL and options the caller decorated itself), reloads of the input included.
public struct RequestDecoration: Sendable, Hashable {
    /// `name=value` (already percent-encoded) appended to the URL's query; an argument of the same name
    /// already there is replaced.
    public var query: String?
    /// `Name: value` lines added to the request's headers (FFmpeg's `headers` option).
    public var headers: [String]

    /// A decoration of `query` and `headers`.
    public init(query: String? = nil, headers: [String] = []) {
        self.query = query
        self.headers = headers
    }

    /// `url` with `query` in its query, before a fragment; `url` when there is none.
    public func decorated(_ url: String) -> String {
        guard let query else { return url }
        let name = query.prefix { $0 != "=" } + "="
        let (base, fragment) = url.firstIndex(of: "#").map { (String(url[..<$0]), String(url[$0...])) } ?? (url, "")
        var path = base
        var arguments: [Substring] = []
        if let mark = base.firstIndex(of: "?") {
            path = String(base[..<mark])
            arguments = base[base.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix(name) }
        }
        arguments.append(Substring(query))
        return path + "?" + arguments.joined(separator: "&") + fragment
    }

    /// `options` (libavformat's) with `headers` added to their `headers` option, for a request bufprobe makes
    /// itself (the resource gate adds them to FFmpeg's own).
    public func applied(to options: [String: String]) -> [String: String] {
        guard !headers.isEmpty else { return options }
        var options = options
        options["headers"] = (options["headers"] ?? "") + headers.map { $0 + "\r\n" }.joined()
        return options
    }
}
