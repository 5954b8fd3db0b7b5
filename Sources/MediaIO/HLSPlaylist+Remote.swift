extension HLSPlaylist {
    /// Loads a playlist from a local path or any URL FFmpeg's protocols open (`http(s)://`...), with
    /// the same protocol `options` and timeouts as the media itself. A remote live media playlist longer than
    /// `ResourceLimits.liveSegments` is read as its window (`HLSPlaylistWindow`), as FFmpeg reads it; a
    /// remote body over `limit` bytes is refused (`ResourceReader.readAll(limit:)`).
    public static func load(
        location: String, options: [String: String] = [:], interrupter: Interrupter? = nil,
        limit: Int64 = ResourceLimits.playlistBytes
    ) throws -> HLSPlaylist {
        guard location.contains("://") else { return try load(path: location) }
        let read = try ResourceReader(url: location, options: options, interrupter: interrupter).readAll(limit: limit)
        let bytes = HLSPlaylistWindow.window(read) ?? read
        do {
            return try parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            var located = error
            located.location = location
            throw located
        }
    }
}
