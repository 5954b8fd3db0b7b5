/// Turns a snapshot into one line of exactly `width` terminal columns; pure, no I/O.
///
/// Layout, left to right: `State Title BAR seg variant time  percent  buf  throughput  factor  read-rate`:
/// the state word padded to 7 columns; the numeric fields right-aligned in fixed widths (percent 4,
/// buffered 9, throughput 11, factor 14, read rate 9) so the line does not jitter. The factor is labelled by
/// what it is: `1.3x realtime` (media received per second, check) or `2x speed` (a paced simulation).
///
/// As the width shrinks:
/// 1. the title (at most a third of the width, cut with `…`, or `~` in ASCII; a URL or path is cut in the
///    middle, keeping the host and the file name) keeps at least 6 columns (16 when it tells rows apart,
///    `keepsTitle`) while the fields worth less than naming the input drop, first to last: the factor,
///    the read rate, the percentage, the duration half of the time (`01:23 / 04:56` becomes `01:23`,
///    `01:23 live` becomes `01:23`), the variant legend, the throughput; the bar keeps at least a quarter
///    of the width and never less than 10 columns;
/// 2. when that is not enough, the title is left out and, from every field again, the fields drop first
///    to last: factor, read rate, throughput, the variant legend, buffered ahead, the duration half of the
///    time, the segment index, the current time, the percentage;
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

    /// The fewest columns a title is shortened to before it is left out.
    public static let minimumTitleWidth = 6

    /// Creates a renderer with `style`.
    public init(style: ProgressStyle) {
        self.style = style
    }

    private enum Field: CaseIterable {
        case segment, variant, time, percent, buffered, throughput, factor, readRate
    }

    private enum Drop {
        case field(Field)
        case duration
    }

    private static let dropOrder: [Drop] = [
        .field(.factor), .field(.readRate), .field(.throughput), .field(.variant), .field(.buffered), .duration,
        .field(.segment), .field(.time), .field(.percent),
    ]

    /// What drops, first to last, while the title keeps its room: the fields worth less than naming the input.
    private static let droppedBeforeTitle: [Drop] = [
        .field(.factor), .field(.readRate), .field(.percent), .duration, .field(.variant), .field(.throughput),
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
        let everyField = fieldTexts(snapshot, shortTime: false)
        let shortTime = fieldTexts(snapshot, shortTime: true)[.time]
        let barFloor = max(Self.minimumBarWidth, width / 4)

        func fixedWidth(_ fields: [Field: String]) -> Int {
            stateWidth + 1 + Field.allCases.reduce(0) { sum, field in
                sum + (fields[field].map { 1 + TerminalWidth.columns(of: $0) } ?? 0)
            }
        }
        /// Every field, less those `order` drops until `reserve` more columns and the bar's floor fit.
        func dropping(_ order: [Drop], reserve: Int) -> [Field: String] {
            var fields = everyField
            for drop in order where fixedWidth(fields) + reserve + barFloor > width {
                switch drop {
                case .field(let field): fields[field] = nil
                case .duration: if fields[.time] != nil { fields[.time] = shortTime }
                }
            }
            return fields
        }

        let title = snapshot.title.map(TerminalWidth.sanitized) ?? ""
        let titleColumns = TerminalWidth.columns(of: title)
        var fields: [Field: String]?
        var titleRoom = 0
        if !title.isEmpty {
            // A title that tells rows apart asks for more room first, then makes do with the least.
            let floors = snapshot.keepsTitle ? [Self.keptTitleWidth, Self.minimumTitleWidth] : [Self.minimumTitleWidth]
            for floor in floors where fields == nil {
                let reserve = min(floor, titleColumns) + 1
                let kept = dropping(Self.droppedBeforeTitle, reserve: reserve)
                if fixedWidth(kept) + reserve + barFloor <= width {
                    fields = kept
                    titleRoom = min(width - fixedWidth(kept) - barFloor - 1, max(reserve - 1, width / 3), titleColumns)
                }
            }
        }
        let shown = fields ?? dropping(Self.dropOrder, reserve: 0)
        if fixedWidth(shown) + Self.minimumBarWidth > width { return nil }
        let titleText = titleRoom > 0 ? TerminalWidth.fitTitle(title, width: titleRoom, ellipsis: style.ellipsis) : ""
        let titleWidth = titleText.isEmpty ? 0 : TerminalWidth.columns(of: titleText) + 1
        return Layout(
            stateText: stateText, titleText: titleText, fields: shown, barStart: stateWidth + 1 + titleWidth,
            barWidth: width - fixedWidth(shown) - titleWidth)
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
        // One place for either factor, each named: a paced simulation's speed is not a receiving rate.
        if let speed = s.playbackSpeed, speed.isFinite {
            fields[.factor] = FieldFormat.padLeft(FieldFormat.short(speed) + "x speed", 14)
        } else if let factor = s.realtimeFactor, factor.isFinite {
            fields[.factor] = FieldFormat.padLeft(FieldFormat.short(factor) + "x realtime", 14)
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
