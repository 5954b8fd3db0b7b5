import Foundation

extension HLSPlaylist {
    /// Whether the file at `path` looks like an HLS playlist by its first bytes (`ContainerFormat(head:)`:
    /// `#EXTM3U` past a byte order mark and white space).
    public static func isPlaylist(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        return ContainerFormat(head: head) == .hls
    }

    /// Reads and parses the local playlist file at `path`.
    ///
    /// At most `ResourceLimits.playlistBytes` are read: a path a hostile master names (`/dev/zero`) is
    /// refused, not read into memory.
    public static func load(path: String) throws(HLSPlaylistError) -> HLSPlaylist {
        let unreadable = HLSPlaylistError(line: nil, reason: "cannot be read (check the path and permissions)", location: path)
        guard let handle = FileHandle(forReadingAtPath: path) else { throw unreadable }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Int(ResourceLimits.playlistBytes) + 1) ?? Data()
        } catch {
            throw unreadable
        }
        guard data.count <= ResourceLimits.playlistBytes else {
            throw HLSPlaylistError(
                line: nil, reason: "is larger than \(ResourceLimits.playlistBytes >> 20) MiB, more than a playlist may be", location: path)
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            return try parse(text)
        } catch {
            var located = error
            located.location = path
            throw located
        }
    }

    /// The bytes a client downloads for each segment of this media playlist, read at `path`: the byte
    /// range's length when one is given, else the size of the segment's file on disk, plus the size of
    /// the `#EXT-X-MAP` initialization section for the first segment that needs it (and each change of
    /// map). With `separatingInitialization`, the first map is left out (`initializationSize` gives it:
    /// a player that fetches it by a request of its own); later changes of map still count in the
    /// segment where they change. Throws, naming the line, when a segment's file does not exist; only
    /// local files are measured.
    public func segmentSizes(playlistPath: String, separatingInitialization: Bool = false)
        throws(HLSPlaylistError) -> [Int64]
    {
        var sizes: [Int64] = []
        sizes.reserveCapacity(segments.count)
        var previousMap: Map?
        var sawMap = false
        for (index, segment) in segments.enumerated() {
            var bytes = try size(of: segment.uri, range: segment.byteRange, playlistPath: playlistPath, index: index)
            if let map = segment.map, map != previousMap {
                if sawMap || !separatingInitialization {
                    bytes += try size(of: map.uri, range: map.byteRange, playlistPath: playlistPath, index: index)
                }
                sawMap = true
            }
            previousMap = segment.map
            sizes.append(bytes)
        }
        return sizes
    }

    /// The size of the first `#EXT-X-MAP` initialization section (0 when there is none): what a player
    /// fetches once before the first segment it plays from this playlist.
    public func initializationSize(playlistPath: String) throws(HLSPlaylistError) -> Int64 {
        guard let index = segments.firstIndex(where: { $0.map != nil }), let map = segments[index].map else { return 0 }
        return try size(of: map.uri, range: map.byteRange, playlistPath: playlistPath, index: index)
    }

    private func size(of uri: String, range: ByteRange?, playlistPath: String, index: Int)
        throws(HLSPlaylistError) -> Int64
    {
        if let range { return range.length }
        let path = Self.resolve(uri, against: playlistPath)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw HLSPlaylistError(
                line: nil,
                reason: "lists segment \(index + 1) at \(path), which does not exist or cannot be measured",
                location: playlistPath)
        }
        return size
    }
}
