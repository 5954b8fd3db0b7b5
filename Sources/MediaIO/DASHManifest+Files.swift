import Foundation

extension DASHManifest {
    /// Whether the file at `path` looks like a DASH manifest: an `<MPD` element in its first 4 KiB.
    public static func isManifest(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return String(decoding: head, as: UTF8.self).contains("<MPD")
    }

    /// Reads and parses the local manifest at `path`, at most `ResourceLimits.playlistBytes` of it.
    public static func load(path: String) throws(DASHManifestError) -> DASHManifest {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DASHManifestError(reason: "cannot be read (check the path and permissions)", location: path)
        }
        defer { try? handle.close() }
        let limit = Int(ResourceLimits.playlistBytes)
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            guard let chunk = try? handle.read(upToCount: min(64 << 10, limit + 1 - bytes.count)), !chunk.isEmpty else { break }
            bytes += chunk
        }
        guard bytes.count <= limit else {
            throw DASHManifestError(reason: "is larger than \(limit >> 20) MiB, the most read as one playlist", location: path)
        }
        do {
            return try parse(bytes)
        } catch {
            var located = error
            located.location = path
            throw located
        }
    }

    /// What a client downloads for `representation` of the manifest read at `manifestPath`: its
    /// initialization segment's bytes (0 without one) and each segment's duration and bytes (a byte
    /// range's length, else the file's size on disk; a `SegmentBase` file's `sidx` gives both, and its
    /// bytes count with the initialization segment's, which a player fetches with it). Only local
    /// files are measured: a URL is refused, naming it.
    public func segments(of representation: Representation, manifestPath: String)
        throws(DASHManifestError) -> (initialization: Int64, segments: [(duration: Double, bytes: Int64)])
    {
        let initialization = try representation.initialization.map { resource throws(DASHManifestError) in
            try Self.size(of: resource, manifestPath: manifestPath, what: "the initialization segment of Representation \(representation.id)")
        } ?? 0
        switch representation.addressing {
        case .listed(let segments):
            var result: [(duration: Double, bytes: Int64)] = []
            result.reserveCapacity(segments.count)
            for (index, segment) in segments.enumerated() {
                let bytes = try Self.size(
                    of: segment.resource, manifestPath: manifestPath,
                    what: "segment \(index + 1) of Representation \(representation.id)")
                result.append((segment.duration, bytes))
            }
            return (initialization, result)
        case .indexed(let media, let indexRange):
            let path = try Self.localPath(media, manifestPath: manifestPath)
            let (index, indexBytes) = try Self.segmentIndex(
                path: path, range: indexRange, manifestPath: manifestPath, id: representation.id)
            // A player reads the index before any segment, with the initialization: one request for both.
            return (initialization + indexBytes, index.references.map { ($0.duration, $0.size) })
        }
    }

    /// The local path of `url` (relative to the manifest), or a refusal for a remote URL.
    static func localPath(_ url: String, manifestPath: String) throws(DASHManifestError) -> String {
        var resolved = join(url, onto: manifestPath)
        if resolved.hasPrefix("file://") { resolved = String(resolved.dropFirst("file://".count)) }
        guard !resolved.contains("://") else {
            throw DASHManifestError(
                reason: "lists \(resolved), a URL: simulate reads local manifests and their local segments (download them first)",
                location: manifestPath)
        }
        return resolved.removingPercentEncoding ?? resolved
    }

    private static func size(of resource: Resource, manifestPath: String, what: String) throws(DASHManifestError) -> Int64 {
        let path = try localPath(resource.url, manifestPath: manifestPath)
        if let range = resource.range { return range.length }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw DASHManifestError(
                reason: "lists \(what) at \(path), which does not exist or cannot be measured", location: manifestPath)
        }
        return size
    }

    /// The `sidx` of the file at `path`: at `range` when given, else the first `sidx` among its top-level
    /// boxes; and the index's bytes.
    private static func segmentIndex(path: String, range: ByteRange?, manifestPath: String, id: String)
        throws(DASHManifestError) -> (MP4SegmentIndex, Int64)
    {
        let failure = { (why: String) in
            DASHManifestError(reason: "gives Representation \(id) an index in \(path) that is not usable (\(why))", location: manifestPath)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw failure("the file cannot be read") }
        defer { try? handle.close() }
        var location = range
        if location == nil {
            let layout: MP4BoxLayout
            do {
                layout = try MP4BoxLayout.scan(path: path)
            } catch {
                throw failure("the file cannot be read")
            }
            guard let box = layout.boxes.first(where: { $0.type == "sidx" }) else { throw failure("it has no sidx box") }
            location = ByteRange(first: box.offset, last: box.end - 1)
        }
        guard let location, location.length <= 16 << 20 else { throw failure("the index is larger than 16 MiB") }
        do {
            try handle.seek(toOffset: UInt64(location.first))
        } catch {
            throw failure("the index range is past the end of the file")
        }
        let bytes = Array((try? handle.read(upToCount: Int(location.length))) ?? Data())
        do {
            return (try MP4SegmentIndex.parse(bytes, at: location.first), location.length)
        } catch {
            switch error {
            case .invalid(let why): throw failure(why)
            }
        }
    }
}
