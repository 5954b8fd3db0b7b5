/// Turns a snapshot into one line of exactly `width` terminal columns; pure, no I/O.
///
/// Layout, left to right: `State Title BAR seg variant time  percent  buf  throughput  realtime  read-rate`:
/// the state word padded to 7 columns; the numeric fields right-aligned in fixed widths (percent 4,
/// buffered 9, throughput 9, realtime 6, read rate 9) so the line does not jitter.
///
/// As the width shrinks:
/// 1. the title goes first: it only takes room the bar does not need (at most a third of the width,
///    cut with `…`, or `~` in ASCII; a URL or path is cut in the middle, keeping the host and the
///    file name), is left out when fewer than 6 columns are left for it, and is
///    left out whenever a field below had to be dropped, except when it tells rows apart
///    (`keepsTitle`): then it takes the room of the realtime factor, read rate and throughput first;
/// 2. fields drop, first to last: realtime factor, read rate, throughput, the variant legend, buffered ahead, the
///    duration half of the time (`01:23 / 04:56` becomes `01:23`, `01:23 live` becomes `01:23`), the
///    segment index, the current time, the percentage, until the bar gets at least a quarter of the
///    width and never less than 10 columns;
/// 3. when even the state word and a 10-column bar do not fit (below 18 columns for a 7-letter
///    word), the compact form: `State 45%` (`State 01:23` without a duration, `State` alone while
///    indeterminate or when that does not fit), cut to the width.
///
/// The variant legend (an adaptive stream's time segments, `SegmentProgress.variantBitRates`) names the
/// variant being fetched: its glyph in its color, its place in the ladder from the lowest, its bit rate
/// (`▅ 2/3 1.0 Mbit/s`), so the colors and glyphs of the bar can be read.
///
/// Without a duration the time reads `01:23 live` and there is no percentage; with a live edge
/// (`ProgressSnapshot.live`) it reads the latency, `live -8.2 s` (`-8.2 s` when short, and in the compact
/// form), and the bar's track is the time-shift window ending at the edge; while indeterminate,
/// or in phase mode without a duration, there is neither time nor percentage.
public struct ProgressRenderer: Sendable {
    /// The look used for every frame.
    public var style: ProgressStyle

    /// The narrowest bar the full form draws.
    public static let minimumBarWidth = 10

    /// The columns a title that tells rows apart (`ProgressSnapshot.keepsTitle`) is given room for.
    public static let keptTitleWidth = 16

    /// Creates a renderer with `style`.
    public init(style: ProgressStyle) {
        self.style = style
    }

    private enum Field: CaseIterable {
        case segment, variant, time, percent, buffered, throughput, realtime, readRate
    }

    private enum Drop {
        case field(Field)
        case duration
    }

    private static let dropOrder: [Drop] = [
        .field(.realtime), .field(.readRate), .field(.throughput), .field(.variant), .field(.buffered), .duration,
        .field(.segment), .field(.time), .field(.percent),
    ]

    /// Where each part of the full form goes for one snapshot and width; `nil` means the compact form.
    private struct Layout {
        var stateText: String
        var titleText: String
        var fields: [Field: String]
        var barStart: Int
        var barWidth: Int
    }

    private func layout(_ snapshot: ProgressSnapshot, width: Int) -> Layout? {
        let stateText = pad(snapshot.state.label, 7)
        let stateWidth = TerminalWidth.columns(of: stateText)
        var fields = fieldTexts(snapshot, shortTime: false)
        let shortTime = fieldTexts(snapshot, shortTime: true)[.time]

        func fixedWidth() -> Int {
            stateWidth + 1 + Field.allCases.reduce(0) { sum, field in
                sum + (fields[field].map { 1 + TerminalWidth.columns(of: $0) } ?? 0)
            }
        }

        let barFloor = max(Self.minimumBarWidth, width / 4)
        let everyField = fields
        for drop in Self.dropOrder where fixedWidth() + barFloor > width {
            switch drop {
            case .field(let field): fields[field] = nil
            case .duration: if fields[.time] != nil { fields[.time] = shortTime }
            }
        }
        if fixedWidth() + Self.minimumBarWidth > width { return nil }

        let title = snapshot.title.map(TerminalWidth.sanitized) ?? ""
        if snapshot.keepsTitle, !title.isEmpty {
            let wanted = min(Self.keptTitleWidth, TerminalWidth.columns(of: title))
            for field in [Field.realtime, .readRate, .throughput] where width - fixedWidth() - barFloor - 1 < wanted {
                fields[field] = nil
            }
        }
        var titleText = ""
        if fields == everyField || snapshot.keepsTitle, !title.isEmpty {
            let room = min(width - fixedWidth() - barFloor - 1, max(6, width / 3))
            let wanted = TerminalWidth.columns(of: title)
            if room >= min(6, wanted) {
                titleText = TerminalWidth.fitTitle(title, width: min(room, wanted), ellipsis: style.ellipsis)
            }
        }
        let titleWidth = titleText.isEmpty ? 0 : TerminalWidth.columns(of: titleText) + 1
        return Layout(
            stateText: stateText, titleText: titleText, fields: fields, barStart: stateWidth + 1 + titleWidth,
            barWidth: width - fixedWidth() - titleWidth)
    }

    /// The frame for `snapshot`, exactly `width` columns wide (escape codes count 0).
    public func render(_ snapshot: ProgressSnapshot, width: Int) -> String {
        guard width > 0 else { return "" }
        guard let layout = layout(snapshot, width: width) else { return compact(snapshot, width: width) }
        var line = StyledLine(mode: style.colorMode)
        line.append(layout.stateText, color: style.stateColor(snapshot.state), bold: true)
        line.append(" ")
        if !layout.titleText.isEmpty {
            line.append(layout.titleText)
            line.append(" ")
        }
        for cell in BarPainter(style: style).paint(snapshot, cells: layout.barWidth) {
            line.append(cell.glyph, color: cell.color)
        }
        for field in Field.allCases {
            guard let text = layout.fields[field] else { continue }
            if field == .variant, let swatch = text.first, let look = variantLook(snapshot) {
                // The legend's swatch is drawn like the bar's cells of that variant.
                line.append(" ")
                line.append(swatch, color: look.color)
                line.append(String(text.dropFirst()))
            } else {
                line.append(" " + text)
            }
        }
        return line.finished()
    }

    /// The 0-based columns the bar occupies in `render(snapshot, width:)`, or `nil` in the compact form.
    public func barColumns(_ snapshot: ProgressSnapshot, width: Int) -> Range<Int>? {
        guard width > 0, let layout = layout(snapshot, width: width) else { return nil }
        return layout.barStart..<(layout.barStart + layout.barWidth)
    }

    /// The media time a click on 0-based `column` points at (the middle of that cell), as the seed's
    /// slider maps a touch to a time; `nil` outside the bar, in phase mode and in the compact form.
    public func time(atColumn column: Int, of snapshot: ProgressSnapshot, width: Int) -> Double? {
        guard snapshot.segments?.starts != nil || snapshot.segments == nil,
            let bar = barColumns(snapshot, width: width), bar.contains(column)
        else { return nil }
        let (start, length) = BarPainter.window(for: snapshot)
        return start + (Double(column - bar.lowerBound) + 0.5) / Double(bar.count) * length
    }

    /// A short line for logs and pipes, without bar or escape codes: the state, title and every known
    /// field, two spaces apart.
    public func renderPlain(_ snapshot: ProgressSnapshot) -> String {
        var parts = [snapshot.state.label]
        if let title = snapshot.title.map(TerminalWidth.sanitized), !title.isEmpty { parts.append(title) }
        let fields = fieldTexts(snapshot, shortTime: false)
        for field in Field.allCases {
            if let text = fields[field] {
                parts.append(text.drop(while: { $0 == " " }).description)
            }
        }
        return parts.joined(separator: "  ")
    }

    private func compact(_ snapshot: ProgressSnapshot, width: Int) -> String {
        var text = snapshot.state.label
        if !snapshot.isIndeterminate {
            if let duration = snapshot.knownDuration {
                text += " " + Self.percentText(snapshot.currentTime / duration).drop(while: { $0 == " " })
            } else if let live = snapshot.live {
                text += " " + live.figure
            } else {
                text += " " + FieldFormat.clock(snapshot.currentTime, hours: abs(snapshot.currentTime) >= 3600)
            }
        }
        if TerminalWidth.columns(of: text) > width { text = snapshot.state.label }
        var line = StyledLine(mode: style.colorMode)
        line.append(TerminalWidth.fit(text, width: width), color: style.stateColor(snapshot.state), bold: true)
        return line.finished()
    }

    /// The look of the variant being fetched, when the snapshot has a ladder.
    private func variantLook(_ snapshot: ProgressSnapshot) -> LayerStyle? {
        guard let segments = snapshot.segments, !segments.variantBitRates.isEmpty,
            let current = segments.currentVariant
        else { return nil }
        return style.variantLook(current, of: segments.variantBitRates.count)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - TerminalWidth.columns(of: text)))
    }

    static func percentText(_ fraction: Double) -> String {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        // 0...100 once clamped: the conversion cannot trap.
        return FieldFormat.padLeft("\(Int((clamped * 100 + 1e-9).rounded(.down)))%", 4)
    }

    private func fieldTexts(_ s: ProgressSnapshot, shortTime: Bool) -> [Field: String] {
        var fields: [Field: String] = [:]
        if let segments = s.segments {
            let shown = min(segments.current + 1, segments.count)
            var text = segments.starts == nil ? "\(shown)/\(segments.count)" : "seg \(shown)/\(segments.count)"
            if let label = segments.currentLabel.map(TerminalWidth.sanitized), !label.isEmpty {
                text += " " + label
            }
            fields[.segment] = text
            if let look = variantLook(s), let current = segments.currentVariant {
                let rate = FieldFormat.rate(segments.variantBitRates[current], unit: "bit")
                fields[.variant] = "\(look.glyph) \(current + 1)/\(segments.variantBitRates.count) " + FieldFormat.padLeft(rate, 10)
            }
        }
        let isPhases = s.segments != nil && s.segments?.starts == nil
        if !s.isIndeterminate && !(isPhases && s.knownDuration == nil) {
            if let duration = s.knownDuration {
                let hours = max(duration, abs(s.currentTime)) >= 3600
                let current = FieldFormat.clock(s.currentTime, hours: hours)
                fields[.time] = shortTime ? current : "\(current) / \(FieldFormat.clock(duration, hours: hours))"
                fields[.percent] = Self.percentText(s.currentTime / duration)
            } else if let live = s.live {
                fields[.time] = shortTime ? live.figure : "live \(live.figure)"
            } else {
                let current = FieldFormat.clock(s.currentTime, hours: abs(s.currentTime) >= 3600)
                fields[.time] = shortTime ? current : "\(current) live"
            }
        }
        if let ahead = s.bufferedAhead, ahead.isFinite {
            fields[.buffered] = FieldFormat.padLeft("buf " + FieldFormat.seconds(max(ahead, 0)), 9)
        }
        if let bits = s.throughputBitsPerSecond, bits.isFinite {
            fields[.throughput] = FieldFormat.padLeft(FieldFormat.rate(bits, unit: "bit"), 11)
        }
        if let factor = s.realtimeFactor, factor.isFinite {
            fields[.realtime] = FieldFormat.padLeft(FieldFormat.short(factor) + "x", 6)
        }
        if let bytes = s.readBytesPerSecond, bytes.isFinite {
            fields[.readRate] = FieldFormat.padLeft(FieldFormat.rate(bytes, unit: "B"), 9)
        }
        return fields
    }
}

/// The frame for `snapshot`, exactly `width` columns wide, drawn with `style`.
public func render(_ snapshot: ProgressSnapshot, width: Int, style: ProgressStyle) -> String {
    ProgressRenderer(style: style).render(snapshot, width: width)
}
