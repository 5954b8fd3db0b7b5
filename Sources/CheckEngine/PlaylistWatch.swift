import Foundation
package import MediaIO
import BufprobeOutput

/// The live media playlists one check watches, judged by `HLSPlaylistHealth` from the playlists FFmpeg's
/// HLS demuxer itself loads (`MediaInput`'s `playlistLoaded`, fed by the resource gate's copy of every
/// playlist read).
///
/// Why observe FFmpeg rather than poll the playlist ourselves: the demuxer already reloads the played
/// playlist as RFC 8216 §6.3.4 prescribes (after the last segment's duration, half the target duration
/// after an unchanged reload), so its copy judges exactly what the player saw at the player's own reload
/// times, with no extra request to pace, no second reader thread sharing the interrupter, and nothing to
/// stop but the check itself. What it cannot see: the input's very first read (libavformat opens the
/// input itself), so a media playlist given as the input is judged from its first reload on.
///
/// A playlist is *watched* once it is loaded after opening (`openingFinished()`): opening reads every
/// variant's playlist (and may reload some while it probes the streams), and only the played variant's,
/// with its renditions, is reloaded after the others are discarded. What opening read is each watched
/// playlist's first load (its events count too). Each playlist keeps only its previous load's summary;
/// at most `maxPlaylists` are tracked. A value held by `CheckMachine`, fed by its events.
package struct PlaylistWatch: Sendable {
    /// Playlists tracked at most (a master lists a handful of variants and renditions).
    static let maxPlaylists = 64

    private struct State: Sendable {
        var records: [String: HLSPlaylistHealth] = [:]
        var watched: [String] = []
        var opened = false
    }

    private var state = State()

    /// An empty watch.
    package init() {}

    /// Opening is over and the variants not played are discarded: from now on every playlist loaded is
    /// one the player uses.
    package mutating func openingFinished() {
        state.opened = true
    }

    /// Judges one playlist FFmpeg read, `at` seconds after the check began; returns it parsed (`nil` when
    /// it is not a playlist).
    @discardableResult
    package mutating func load(url: String, bytes: [UInt8], at time: Double) -> HLSPlaylist? {
        let parsed: Result<HLSPlaylist, HLSPlaylistError>
        do {
            parsed = .success(try HLSPlaylist.parse(String(decoding: bytes, as: UTF8.self)))
        } catch {
            var located = error
            located.location = url
            parsed = .failure(located)
        }
        if case .success(let playlist) = parsed, playlist.kind == .master { return playlist }
        guard state.records[url] != nil || state.records.count < Self.maxPlaylists else { return try? parsed.get() }
        var record = state.records[url] ?? HLSPlaylistHealth(url: url)
        record.observe(parsed, at: time)
        state.records[url] = record
        if state.opened, !state.watched.contains(url) { state.watched.append(url) }
        return try? parsed.get()
    }

    /// The report's `playlist_health`: the watched playlists' reloads, counts and events (oldest first).
    package func report() -> CheckReport.PlaylistHealth {
        let records = state.watched.compactMap { state.records[$0] }
        var health = CheckReport.PlaylistHealth()
        health.url = records.first?.url
        health.playlists = records.map(\.url)
        health.reloads = records.reduce(0) { $0 + $1.reloads }
        for record in records {
            for kind in HLSPlaylistHealth.Kind.allCases {
                health.counts.add(record.counts[kind, default: 0], to: kind)
            }
        }
        health.events = records.flatMap { record in
            record.events.map { event in
                CheckReport.PlaylistHealth.Event(
                    kind: event.kind.rawValue, at: JSONOutput.seconds(event.at), mediaSequence: event.mediaSequence,
                    playlist: record.url, message: event.message)
            }
        }.sorted { $0.at < $1.at }
        return health
    }
}
