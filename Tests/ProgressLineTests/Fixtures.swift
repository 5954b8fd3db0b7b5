@testable import ProgressLine

/// Snapshots shared by the renderer tests.
enum Fixtures {
    /// 100 s of media, playhead at 10 s, loaded 0-30, 50-70 and 90-100 (two holes).
    static let holes = ProgressSnapshot(
        state: .playing, currentTime: 10, duration: 100, loaded: [0..<30, 50..<70, 90..<100], bufferedAhead: 20)
    /// Playhead at 0, nothing loaded.
    static let start = ProgressSnapshot(state: .loading, currentTime: 0, duration: 100)
    /// Playhead at the end, everything loaded.
    static let end = ProgressSnapshot(state: .ended, currentTime: 100, duration: 100, loaded: [0..<100])
    /// Stalled at 50 s with a stall marker exactly at the playhead and a seek marker at 20 s.
    static let markerOnThumb = ProgressSnapshot(
        state: .stalled, currentTime: 50, duration: 100, loaded: [0..<50],
        markers: [ProgressMarker(.stall, at: 50), ProgressMarker(.seek, at: 20)])
    /// Every field known, a 2 h duration.
    static let full = ProgressSnapshot(
        state: .playing, title: "Big Buck Bunny", currentTime: 3725, duration: 7200,
        loaded: [0..<4000, 5000..<5100], bufferedAhead: 275, throughputBitsPerSecond: 4_200_000,
        realtimeFactor: 3.14, readBytesPerSecond: 12_500_000,
        markers: [ProgressMarker(.stall, at: 1800), ProgressMarker(.gap, at: 4500)])
    /// A title with CJK (2-column) characters.
    static let cjk = ProgressSnapshot(
        state: .playing, title: "東京の夜景 Tokyo night", currentTime: 30, duration: 120, loaded: [0..<60])
    /// A live stream: no duration, playhead at 10:00, loaded 9:00-10:05.
    static let live = ProgressSnapshot(
        state: .playing, currentTime: 600, duration: nil, loaded: [540..<605], bufferedAhead: 5)
    /// Three time segments (0, 20, 40 s) with the second current.
    static let timeSegments = ProgressSnapshot(
        state: .playing, currentTime: 25, duration: 60, loaded: [0..<25],
        segments: SegmentProgress(starts: [0, 20, 40], current: 1))
    /// An adaptive stream: six 10 s segments, played to 10 s, loaded to 40 s at variants 1, 1, 2, 3 (of
    /// 500 kbit/s, 1 Mbit/s, 2 Mbit/s), the fifth segment being fetched at the top variant.
    static let variants = ProgressSnapshot(
        state: .playing, title: "master.m3u8", currentTime: 10, duration: 60, loaded: [10..<40], bufferedAhead: 30,
        throughputBitsPerSecond: 2_500_000, realtimeFactor: 20,
        segments: SegmentProgress(
            starts: [0, 10, 20, 30, 40, 50], current: 4, variants: [0, 0, 1, 2, nil, nil],
            variantBitRates: [500_000, 1_000_000, 2_000_000], currentVariant: 2))
    /// The six phases of a check, the third current, still indeterminate.
    static let phases = ProgressSnapshot(
        state: .loading,
        segments: SegmentProgress(
            count: 6, current: 2, labels: ["resolve", "connect", "open", "probe", "first packet", "playable"]),
        isIndeterminate: true, tick: 3)
    /// Opening a URL: no measurable progress.
    static func opening(tick: Int) -> ProgressSnapshot {
        ProgressSnapshot(state: .loading, title: "http://x", isIndeterminate: true, tick: tick)
    }

    /// Every fixture, for properties that must hold for all of them.
    static let all: [ProgressSnapshot] = [
        holes, start, end, markerOnThumb, full, cjk, live, timeSegments, variants, phases, opening(tick: 7),
        ProgressSnapshot(state: .interrupted, title: "x\u{1B}[31mred", currentTime: -1.5, duration: .infinity),
    ]

    /// The default look for `glyphs`, thumb on or off, no colors.
    static func style(_ glyphs: GlyphSet, thumb: Bool = true, colors: ColorMode = .none) -> ProgressStyle {
        ProgressStyle(glyphs: glyphs, colors: colors, showsThumb: thumb)
    }
}

/// `text` without its escape sequences: what the terminal shows.
func stripEscapes(_ text: String) -> String {
    var out = ""
    var escape = false
    for scalar in text.unicodeScalars {
        if scalar == "\u{1B}" { escape = true; continue }
        if escape {
            if scalar.value >= 0x40 && scalar.value <= 0x7E && scalar != "[" { escape = false }
            continue
        }
        out.unicodeScalars.append(scalar)
    }
    return out
}
