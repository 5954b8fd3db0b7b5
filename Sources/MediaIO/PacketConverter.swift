internal import CFFmpeg

/// Turns `RawPacket`s into `Packet`s: ticks to seconds in each stream's time base, then, for demuxers
/// whose timestamps may restart (`AVFMT_TS_DISCONT`), onto one continuous timeline
/// (`TimestampContinuity`). The one conversion `MediaInput.readPacket()` uses; a reader that converts on
/// another thread takes its own converter from `MediaInput.makePacketConverter()` before reading and
/// tells it of every stream the demuxer adds (`addStream`), in order.
public struct PacketConverter: Sendable {
    // Per stream index.
    private var timeBases: [Rational]
    private var continuity: TimestampContinuity?

    init(timeBases: [Rational], mapsDiscontinuities: Bool) {
        self.timeBases = timeBases
        continuity = mapsDiscontinuities ? TimestampContinuity() : nil
    }

    /// Streams known so far.
    public var streamCount: Int { timeBases.count }

    /// How many times the timestamps restarted or jumped and were mapped (0 for demuxers whose
    /// timestamps cannot restart).
    public var discontinuities: Int { continuity?.discontinuities ?? 0 }

    /// The same streams and time bases with no timestamps seen (no offset, no history).
    public func restarted() -> PacketConverter {
        PacketConverter(timeBases: timeBases, mapsDiscontinuities: continuity != nil)
    }

    /// Adds the next stream (index `streamCount`) with its time base.
    public mutating func addStream(timeBase: Rational) { timeBases.append(timeBase) }

    /// `raw` in seconds. A stream index the converter was not told of (a caller that missed `addStream`)
    /// gets no times rather than a trap.
    public mutating func packet(_ raw: RawPacket) -> Packet {
        let index = Int(raw.stream)
        let timeBase = timeBases.indices.contains(index) ? timeBases[index] : Rational(0, 0)
        var pts = timeBase.seconds(raw.pts)
        var dts = timeBase.seconds(raw.dts)
        let duration = raw.duration > 0 ? timeBase.seconds(raw.duration) : nil
        if let mapped = continuity?.map(stream: index, pts: pts, dts: dts, duration: duration) {
            (pts, dts) = mapped
        }
        return Packet(
            stream: index,
            pts: pts,
            dts: dts,
            duration: duration,
            size: Int(raw.size),
            position: raw.position >= 0 ? raw.position : nil,
            isKeyframe: raw.flags & AV_PKT_FLAG_KEY != 0,
            isCorrupt: raw.flags & AV_PKT_FLAG_CORRUPT != 0)
    }
}
