/// How a progressive file's bytes reach a player, for `ProgressiveDownloadAnalyzer`: which bytes must
/// arrive before a packet is usable, and after how many requests.
public struct DownloadLayout: Sendable, Hashable {
    /// Bytes that must have arrived before *any* packet is usable, counted from the file's start: the end
    /// of an index that sits after the media (an MP4 `moov` at the end read sequentially), else 0.
    public var indexByteEnd: Int64
    /// Bytes fetched in addition to everything before the packet: an index read by a range request.
    public var extraBytes: Int64
    /// Requests before the media bytes flow; each costs one latency.
    public var requests: Int

    /// Creates a layout.
    public init(indexByteEnd: Int64 = 0, extraBytes: Int64 = 0, requests: Int = 1) {
        self.indexByteEnd = indexByteEnd
        self.extraBytes = extraBytes
        self.requests = requests
    }

    /// One request from byte 0, in file order: the plain progressive download.
    public static let sequential = DownloadLayout()

    /// A file whose index (`indexBytes` long, ending at `indexByteEnd`) sits after the media, read
    /// sequentially: nothing plays before the index, i.e. the whole file up to its end, is in.
    public static func sequential(indexAtEndEndingAt indexByteEnd: Int64) -> DownloadLayout {
        DownloadLayout(indexByteEnd: indexByteEnd)
    }

    /// The same file read by a player that uses range requests: the first request stops at the media
    /// data, a second fetches the index, a third comes back to the media; the index bytes come on top.
    public static func rangeRequests(indexBytes: Int64) -> DownloadLayout {
        DownloadLayout(extraBytes: indexBytes, requests: 3)
    }

    /// The one rule for how a progressive file downloads, shared by `probe`'s needs and `simulate`: a file
    /// whose index (`offset`, `size` bytes) follows the media is read sequentially (`.sequential`, nothing
    /// before the index's end) or by range requests (`.ranges`: the index fetched on its own, two more
    /// requests); any other file (`index` nil) is one request in file order.
    public static func progressive(indexAtEnd index: (offset: Int64, size: Int64)?, mode: DownloadMode) -> DownloadLayout {
        guard let index, index.size > 0 else { return .sequential }
        switch mode {
        case .sequential: return .sequential(indexAtEndEndingAt: index.offset + index.size)
        case .ranges: return .rangeRequests(indexBytes: index.size)
        }
    }

    /// Whether the index is fetched by a range request of its own (`rangeRequests`).
    public var fetchesIndexByRange: Bool { extraBytes > 0 }

    /// The bytes that must have arrived for a packet ending at byte `byteEnd` of the file.
    public func bytesNeeded(forByteEnd byteEnd: Int64) -> Int64 { max(byteEnd, indexByteEnd) + extraBytes }
}
