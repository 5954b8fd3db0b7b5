/// Paints the bar into cells, layer over layer: track (or the current segment), buffer, progress,
/// segment separators and markers, thumb.
///
/// Rules, with `n` cells over a window of `length` seconds and cell `i` covering
/// `[start + i*c, start + (i+1)*c)` where `c = length / n`:
/// - buffer: a cell is drawn loaded when the loaded ranges cover at least half of it, so a hole of at
///   least one cell always shows and a hole under half a cell never does;
/// - progress: the played fraction `p` fills `floor(p*n*8)` eighths: whole cells with the progress
///   glyph, then one eighth block for the remainder (when the style allows eighths);
/// - markers: a marker at time `t` goes into cell `floor((t - start) / c)`, clamped to the last cell;
///   markers outside the window are not drawn; of two markers in a cell the higher priority wins;
/// - thumb: drawn in the playhead's cell `min(floor(p*n), n-1)`, so it never leaves the bar; the
///   thumb wins over a marker in the same cell and hides the eighth block there;
/// - time segments: separators at segment starts only when every segment can have 2 cells besides
///   its separator (`n >= 3k - 1`, as for phases), so a long playlist never turns the bar into
///   separators; with variants, a cell takes the segment under its middle: a buffered cell is drawn in
///   that segment's variant look (glyph and color), a played cell keeps the progress glyph in the
///   variant's color, and the current segment's unloaded cells take the color of the variant being
///   fetched.
struct BarPainter {
    let style: ProgressStyle

    func paint(_ snapshot: ProgressSnapshot, cells n: Int) -> [LayerStyle] {
        guard n > 0 else { return [] }
        if let segments = snapshot.segments, segments.starts == nil {
            return paintPhases(segments, indeterminate: snapshot.isIndeterminate, tick: snapshot.tick, cells: n)
        }
        return paintTime(snapshot, cells: n)
    }

    /// The cell `offset` into the window falls in, for cells `width` wide: within `0..<cells` whatever
    /// the figures (a window so short its cells underflow to 0 gives NaN, which Int() would trap on).
    static func cell(at offset: Double, width: Double, cells: Int) -> Int {
        let position = (offset / width).rounded(.down)
        guard position.isFinite else { return position == .infinity ? cells - 1 : 0 }
        return Int(min(max(position, 0), Double(cells - 1)))
    }

    /// The window the bar shows: the whole media; for a live stream with a known edge, the time-shift window
    /// ending at the edge (stretched back to the playhead when it fell behind the window, so it stays on
    /// the bar); else a sliding window with the playhead at 3/4.
    static func window(for snapshot: ProgressSnapshot) -> (start: Double, length: Double) {
        if let duration = snapshot.knownDuration { return (0, duration) }
        let length = snapshot.liveWindow.isFinite && snapshot.liveWindow > 0 ? snapshot.liveWindow : 60
        if let live = snapshot.live, live.edge.isFinite, snapshot.currentTime.isFinite {
            var start = live.windowStart.flatMap { $0.isFinite && $0 < live.edge ? $0 : nil } ?? live.edge - length
            start = min(start, snapshot.currentTime)
            if live.edge - start > 0 { return (start, live.edge - start) }
        }
        // A non-finite playhead would make every cell index below NaN, which Int() traps on.
        let playhead = snapshot.currentTime.isFinite ? snapshot.currentTime : 0
        return (playhead - length * 0.75, length)
    }

    private func paintTime(_ snapshot: ProgressSnapshot, cells n: Int) -> [LayerStyle] {
        let (start, length) = Self.window(for: snapshot)
        let cell = length / Double(n)
        var cells = Array(repeating: style[.track], count: n)

        func index(of time: Double) -> Int? {
            guard time.isFinite, time >= start, time <= start + length else { return nil }
            return Self.cell(at: time - start, width: cell, cells: n)
        }

        let variantCount = snapshot.segments?.variantBitRates.count ?? 0
        if let segments = snapshot.segments, let starts = segments.starts, segments.current < segments.count {
            let from = starts[segments.current]
            let to = segments.current + 1 < starts.count ? starts[segments.current + 1] : start + length
            var look = style[.current]
            if let fetched = segments.currentVariant, variantCount > 0 {
                look.color = style.variantLook(fetched, of: variantCount).color
            }
            for i in 0..<n {
                let middle = start + (Double(i) + 0.5) * cell
                if middle >= from && middle < to { cells[i] = look }
            }
        }

        var covered = Array(repeating: 0.0, count: n)
        for range in snapshot.loaded {
            let low = max(range.lowerBound, start)
            let high = min(range.upperBound, start + length)
            guard high > low else { continue }
            let first = Self.cell(at: low - start, width: cell, cells: n)
            let last = Self.cell(at: high - start, width: cell, cells: n)
            for i in first...last {
                let cellStart = start + Double(i) * cell
                covered[i] += max(0, min(high, cellStart + cell) - max(low, cellStart))
            }
        }
        // The variant of the segment under each cell's middle, for an adaptive stream.
        var variants = [Int?](repeating: nil, count: variantCount > 0 ? n : 0)
        if variantCount > 0, let segments = snapshot.segments, let starts = segments.starts {
            var segment = 0
            for i in 0..<n {
                // The segment under the cell's start, then under its middle: a cell loaded at least half
                // ends in a segment still on its way only when its start is loaded.
                let cellStart = start + Double(i) * cell
                while segment + 1 < starts.count, starts[segment + 1] <= cellStart { segment += 1 }
                let first = cellStart >= starts[0] ? segments.variant(ofSegment: segment) : nil
                let middle = cellStart + 0.5 * cell
                var under = segment
                while under + 1 < starts.count, starts[under + 1] <= middle { under += 1 }
                variants[i] = (middle >= starts[0] ? segments.variant(ofSegment: under) : nil) ?? first
            }
        }
        for i in 0..<n where covered[i] >= cell * 0.5 * (1 - 1e-9) {
            cells[i] = variants.isEmpty ? style[.buffer] : variants[i].map { style.variantLook($0, of: variantCount) } ?? style[.buffer]
        }

        if snapshot.isIndeterminate {
            paintBounce(&cells, range: 0..<n, tick: snapshot.tick)
            return cells
        }

        let played = (snapshot.currentTime - start) / length
        let fraction = played.isFinite ? min(max(played, 0), 1) : 0
        // 0...8n once clamped: the conversion cannot trap.
        let eighths = Int((fraction * Double(n) * 8 + 1e-9).rounded(.down))
        let full = snapshot.showsPlayed ? min(eighths / 8, n) : 0
        func playedColor(_ i: Int) -> TerminalColor? {
            guard !variants.isEmpty, let variant = variants[i] else { return style[.progress].color }
            return style.variantLook(variant, of: variantCount).color
        }
        for i in 0..<full { cells[i] = LayerStyle(style[.progress].glyph, playedColor(i)) }
        if snapshot.showsPlayed, style.usesEighths, full < n, eighths % 8 > 0 {
            cells[full] = LayerStyle(ProgressStyle.eighths[eighths % 8 - 1], playedColor(full))
        }

        var markerAt: [Int: MarkerKind] = [:]
        var marks = snapshot.markers
        if let starts = snapshot.segments?.starts, n >= 3 * starts.count - 1 {
            marks += starts.dropFirst().map { ProgressMarker(.boundary, at: $0) }
        }
        for marker in marks {
            guard let i = index(of: marker.position) else { continue }
            if let existing = markerAt[i], existing.priority >= marker.kind.priority { continue }
            markerAt[i] = marker.kind
        }
        for (i, kind) in markerAt {
            let look = snapshot.segments?.starts != nil && kind == .boundary ? style[.separator] : style[BarLayer(marker: kind)]
            cells[i] = look
        }

        if style.showsThumb {
            cells[Self.cell(at: fraction * Double(n), width: 1, cells: n)] = style[.thumb]
        }
        return cells
    }

    private func paintPhases(_ segments: SegmentProgress, indeterminate: Bool, tick: Int, cells n: Int) -> [LayerStyle] {
        let k = segments.count
        let separators = n >= 3 * k - 1
        let m = separators ? n - (k - 1) : n
        var cells: [LayerStyle] = []
        cells.reserveCapacity(n)
        for j in 0..<k {
            let width = (j + 1) * m / k - j * m / k
            let look: LayerStyle =
                j < segments.current ? style[.progress] : j == segments.current ? style[.current] : style[.track]
            let first = cells.count
            cells += Array(repeating: look, count: width)
            if j == segments.current && indeterminate {
                paintBounce(&cells, range: first..<cells.count, tick: tick)
            }
            if separators && j < k - 1 { cells.append(style[.separator]) }
        }
        return cells
    }

    /// A block a sixth of `range` wide (at least one cell, at most 6, never the whole range) moving
    /// back and forth one cell per tick.
    private func paintBounce(_ cells: inout [LayerStyle], range: Range<Int>, tick: Int) {
        guard !range.isEmpty else { return }
        let width = max(1, min(range.count / 6, 6, range.count - 1))
        let travel = range.count - width
        var offset = 0
        if travel > 0 {
            let phase = ((tick % (2 * travel)) + 2 * travel) % (2 * travel)
            offset = phase <= travel ? phase : 2 * travel - phase
        }
        for i in 0..<width { cells[range.lowerBound + offset + i] = style[.progress] }
    }
}
