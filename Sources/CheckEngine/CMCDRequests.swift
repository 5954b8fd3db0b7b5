package import MediaIO

/// The per-request CMCD keys (CTA-5004) of one check, for the resource gate's request hook
/// (`MediaInput`'s `decorateRequest`): every playlist, reload, segment and key FFmpeg requests after the
/// first gets them, in the check's mode, beside the session keys `CheckSettings` already sends.
///
/// - a playlist (`.m3u8`, `.m3u`, `.mpd`): `ot=m`;
/// - a key (`.key`): `ot=k`;
/// - anything else is media: `br`, the played variant's declared bit rate in kbit/s, and `bl`, the buffer
///   ahead in ms (rounded to 100 ms by `CMCD`), when known; no `ot`, since a segment's URL does not say
///   whether it is audio, video or both;
/// - `su` while the player is starting up or stalled.
///
/// `CheckMachine` keeps it and tells it the player's state as it changes (`observe`); the gate asks the
/// machine on the reading thread.
package struct CMCDRequests: Sendable {
    private struct State: Sendable {
        var bufferMilliseconds: Int?
        var bitRateKbps: Int?
        var startup = true
    }

    /// The check's CMCD settings (mode, session and content ids).
    package let cmcd: CMCD
    private var state = State()

    /// Keys for a check sending `cmcd`.
    package init(_ cmcd: CMCD) { self.cmcd = cmcd }

    /// The player's state now: `bufferedAhead` seconds loaded past the playhead, whether it is starting up
    /// or stalled, and the played variant's declared bit rate in bit/s (`nil` when the input has none).
    package mutating func observe(bufferedAhead: Double, startingUp: Bool, bitRate: Int?) {
        let milliseconds = bufferedAhead * 1000
        // Checked conversion: a hostile or broken duration must not trap.
        let buffer = milliseconds >= 0 ? Int(exactly: milliseconds.rounded()) : nil
        let kbps = bitRate.flatMap { $0 > 0 ? max(1, ($0 + 500) / 1000) : nil }
        state.bufferMilliseconds = buffer
        state.bitRateKbps = kbps
        state.startup = startingUp
    }

    /// The keys for a request of `url`.
    package func request(for url: String) -> CMCD.Request {
        let known = state
        if ContainerFormat(namedBy: url) != nil {
            return CMCD.Request(objectType: .manifest, startup: known.startup)
        }
        let path = (url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url).lowercased()
        if path.hasSuffix(".key") { return CMCD.Request(objectType: .key, startup: known.startup) }
        return CMCD.Request(bitRateKbps: known.bitRateKbps, bufferMilliseconds: known.bufferMilliseconds, startup: known.startup)
    }

    /// What the gate adds to a request of `url`: the `CMCD` query argument, or the `CMCD-Object` and
    /// `CMCD-Request` headers (`CMCD-Session` is already among the check's headers).
    package func decoration(for url: String) -> RequestDecoration {
        let request = request(for: url)
        switch cmcd.mode {
        case .query: return RequestDecoration(query: cmcd.queryArgument(for: request))
        case .headers: return RequestDecoration(headers: cmcd.headers(for: request).filter { !$0.hasPrefix("CMCD-Session:") })
        }
    }
}
