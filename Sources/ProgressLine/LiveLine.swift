#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// The one status line of the process: any number of producers post snapshots, one owner draws them.
/// Several jobs at once (`update(rows:)`) get a row each, redrawn together; a job that ends while
/// others go on leaves its final frame above them (`printFinalAbove(_:)`).
///
/// - `show()` / `hide()` are idempotent; `update(_:)` before `show()` only records the state.
/// - tty mode: redraws at most once per `minimumInterval` (1/15 s by default); an update that arrives
///   sooner is kept and drawn by the next `refresh()` (a timer calls it in the real line), so the
///   latest state is always drawn last. A frame identical to the one on screen is not written again.
///   A frame is `\r`, the rendered line (terminal width - 1 columns, so the terminal never wraps),
///   `ESC[K`, `\r`, in one write(2); after a resize the line is erased with `ESC[J` and redrawn. The
///   cursor is hidden while shown, and shown again by `hide()`, `finish(final:keep:)`, or at exit.
/// - plain mode: no escape codes; quiet for the first `plainInterval` (5 s) after `show()`, so a
///   short job prints nothing; then a status line every `plainInterval` while updates keep coming and
///   whenever the state word changes, and a final line only if an earlier one was printed (Ctrl-C's
///   `Interrupted` line always).
/// - none mode: writes nothing except lines given to `printAbove(_:)`.
/// - `finish(final:keep:)` always draws the final snapshot (tty: the frame, then a newline so it
///   stays above the summary; `keep: false` erases the line instead; plain: one last status line),
///   restores the cursor, and ignores every later call.
public final class LiveLine: Sendable {
    /// How this line writes.
    public let mode: OutputMode
    /// The renderer (and so the style) of every frame.
    public let renderer: ProgressRenderer
    private let sink: any TerminalSink
    private let width: @Sendable () -> Int
    private let now: @Sendable () -> Double
    private let minimumInterval: Double
    private let plainInterval: Double
    private let animationStep: Double
    private let state = Mutex(LiveLineState())

    /// Creates a line writing to `sink`; `width` gives the terminal's columns, `now` monotonic seconds.
    public init(
        mode: OutputMode,
        style: ProgressStyle,
        sink: any TerminalSink,
        width: @escaping @Sendable () -> Int,
        now: @escaping @Sendable () -> Double,
        minimumInterval: Double = 1.0 / 15,
        plainInterval: Double = 5,
        animationStep: Double = 0.1
    ) {
        self.mode = mode
        var style = style
        if mode != .tty { style.colorMode = .none }
        self.renderer = ProgressRenderer(style: style)
        self.sink = sink
        self.width = width
        self.now = now
        self.minimumInterval = minimumInterval
        self.plainInterval = plainInterval
        self.animationStep = animationStep
    }

    deinit {
        state.withLock { state in
            for source in state.sources { source.cancel() }
        }
    }

    /// The line on stderr: real width (TIOCGWINSZ), monotonic clock, a refresh timer, a SIGWINCH
    /// redraw in tty mode. Becomes `LiveLine.current`, the line log lines are printed above.
    public static func standardError(mode: OutputMode, style: ProgressStyle) -> LiveLine {
        let line = LiveLine(
            mode: mode, style: style, sink: StandardErrorSink(),
            width: { TerminalSize.standardErrorColumns() }, now: MonotonicClock.seconds)
        line.startAutomaticRefresh()
        current = line
        return line
    }

    /// The process's stderr line, if one was made with `standardError(mode:style:)` (or set here).
    public static var current: LiveLine? {
        get { currentLine.withLock { $0 } }
        set { currentLine.withLock { $0 = newValue } }
    }

    /// Starts drawing: hides the cursor and draws the latest snapshot (tty). Repeating it does nothing.
    public func show() {
        state.withLock { s in
            guard !s.finished, !s.shown else { return }
            s.shown = true
            guard mode == .tty else {
                s.shownAt = now()
                return
            }
            sink.cursorVisibilityChanged(hidden: true)
            var out = "\u{1B}[?25l"
            if s.latest != nil { out += frame(&s, at: now(), force: true) ?? "" }
            sink.write(out)
        }
    }

    /// Erases the line and shows the cursor (tty). Repeating it does nothing; `show()` brings it back.
    public func hide() {
        state.withLock { s in
            guard !s.finished, s.shown else { return }
            s.shown = false
            guard mode == .tty else { return }
            sink.write((s.onScreen != nil ? s.erase() : "") + "\u{1B}[?25h")
            sink.cursorVisibilityChanged(hidden: false)
            s.onScreen = nil
            s.rowsOnScreen = 0
        }
    }

    /// Posts the newest state; drawn now if the rate limit allows, else by the next `refresh()`.
    public func update(_ snapshot: ProgressSnapshot) {
        update(rows: [snapshot])
    }

    /// Posts the newest state of several jobs at once (inputs checked in parallel), one row each, top
    /// to bottom, like indicatif's MultiProgress; the rows are redrawn together in one write, and
    /// plain mode prints one status line per row. An empty list keeps the previous rows.
    public func update(rows: [ProgressSnapshot]) {
        guard !rows.isEmpty else { return }
        state.withLock { s in
            guard !s.finished else { return }
            s.rows = rows
            // With several rows the title is what tells them apart.
            if rows.count > 1 { for index in s.rows.indices { s.rows[index].keepsTitle = true } }
            let snapshot = s.rows[0]
            s.pending = true
            guard s.shown else { return }
            let time = now()
            switch mode {
            case .tty:
                if time - s.lastDraw >= minimumInterval, let text = frame(&s, at: time, force: false) {
                    sink.write(text)
                }
            case .plain:
                guard plainQuietPeriodOver(s, at: time) else { break }
                let changed = s.lastPlain != nil && s.lastPlainState != snapshot.state
                if changed || time - (s.lastPlain ?? -Double.infinity) >= plainInterval {
                    plainLine(&s, at: time)
                }
            case .none:
                break
            }
        }
    }

    /// Whether an update posted now would be drawn at once (shown, not finished, and the rate limit
    /// allows it). Producers with many events per second (a packet loop) can check it before building
    /// a snapshot; the next `refresh()` still draws anything posted when it was false.
    public var isDue: Bool {
        state.withLock { s in
            guard s.shown, !s.finished else { return false }
            switch mode {
            case .tty: return now() - s.lastDraw >= minimumInterval
            case .plain:
                let time = now()
                return plainQuietPeriodOver(s, at: time) && time - (s.lastPlain ?? -Double.infinity) >= plainInterval
            case .none: return false
            }
        }
    }

    /// Draws what is due: a pending snapshot once the rate limit allows, the next animation step of an
    /// indeterminate snapshot, the periodic plain line. The real line's timer calls it.
    public func refresh() {
        state.withLock { s in
            guard !s.finished, s.shown, !s.rows.isEmpty else { return }
            let time = now()
            switch mode {
            case .tty:
                guard time - s.lastDraw >= minimumInterval else { return }
                let animating = s.rows.contains(where: \.isIndeterminate) && s.lastTick != tick(at: time)
                if s.pending || animating, let text = frame(&s, at: time, force: false) {
                    sink.write(text)
                }
            case .plain:
                if s.pending, plainQuietPeriodOver(s, at: time),
                    time - (s.lastPlain ?? -Double.infinity) >= plainInterval
                {
                    plainLine(&s, at: time)
                }
            case .none:
                break
            }
        }
    }

    /// Redraws at the new width after the terminal was resized (tty).
    public func resized() {
        state.withLock { s in
            guard !s.finished, s.shown, mode == .tty, s.latest != nil else { return }
            // Erase to the end of the screen: a terminal that reflowed the old, wider frame put its
            // tail on the rows below the cursor.
            sink.write("\r\u{1B}[J" + (frame(&s, at: now(), force: true) ?? ""))
        }
    }

    /// Prints `text` (a log line, a warning) on its own line above the status line: erase, print,
    /// redraw, in one write. Control characters other than newline are written as visible escapes
    /// (`TerminalText`) in every mode, so a log line can neither tear the status line nor smuggle
    /// escape codes into plain output.
    public func printAbove(_ text: String) {
        var clean = TerminalText.escaped(text, keepingNewlines: true)
        if clean.hasSuffix("\n") { clean.removeLast() }
        state.withLock { s in
            if mode == .tty, !s.finished, s.shown, s.onScreen != nil {
                sink.write(s.erase() + clean + "\n" + (frame(&s, at: now(), force: true) ?? ""))
            } else {
                sink.write(clean + "\n")
            }
        }
    }

    /// Ends the line: draws `final` (or the latest rows), then leaves it in place (`keep`) or
    /// erases it, and restores the cursor. Later calls of any method draw nothing.
    public func finish(final: ProgressSnapshot? = nil, keep: Bool = true) {
        finish(keep: keep, always: false, final: final)
    }

    /// Ends the line with every row relabelled `Interrupted` (Ctrl-C).
    public func finishInterrupted() {
        state.withLock { s in
            guard !s.finished else { return }
            // With nothing measured yet there is no time to show, so the frame is the word alone.
            if s.rows.isEmpty { s.rows = [ProgressSnapshot(state: .interrupted, isIndeterminate: true)] }
            for index in s.rows.indices { s.rows[index].state = .interrupted }
        }
        finish(keep: true, always: true, final: nil)
    }

    /// Prints the frame of `snapshot` (a job that finished while others go on) above the live rows,
    /// where it stays; plain mode prints its status line, under the same quiet rule as the final line.
    public func printFinalAbove(_ snapshot: ProgressSnapshot) {
        state.withLock { s in
            guard !s.finished else { return }
            switch mode {
            case .tty:
                guard s.shown else { return }
                let rendered = renderer.render(snapshot, width: max(0, width() - 1))
                sink.write(s.erase() + rendered + "\u{1B}[K\n" + (frame(&s, at: now(), force: true) ?? ""))
            case .plain:
                if s.lastPlain != nil { sink.write(renderer.renderPlain(snapshot) + "\n") }
            case .none:
                break
            }
        }
    }

    /// The media time a mouse click on 0-based terminal `column` points at on the line as drawn now
    /// (the latest snapshot at the current width), or `nil` when the click is not on the bar.
    public func time(atColumn column: Int) -> Double? {
        state.withLock { s in
            guard let latest = s.latest else { return nil }
            return renderer.time(atColumn: column, of: latest, width: max(0, width() - 1))
        }
    }

    /// Whether `finish` has been called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    private func finish(keep: Bool, always: Bool, final: ProgressSnapshot?) {
        state.withLock { s in
            guard !s.finished else { return }
            s.finished = true
            if let final { s.rows = [final] }
            for source in s.sources { source.cancel() }
            s.sources.removeAll()
            switch mode {
            case .tty:
                var out = ""
                if keep, s.latest != nil {
                    out += frame(&s, at: now(), force: true, endingBelow: true) ?? ""
                } else if s.onScreen != nil {
                    out += s.erase()
                }
                if s.shown { out += "\u{1B}[?25h" }
                if !out.isEmpty { sink.write(out) }
                if s.shown { sink.cursorVisibilityChanged(hidden: false) }
            case .plain:
                // A job that never printed a status line ends silently too: a pipe or a CI log gets
                // no progress chatter for work that took less than one interval.
                // The final line is not repeated when the last status line already said it (a state
                // change to Ended is printed as it happens).
                if !s.rows.isEmpty, always || s.lastPlain != nil {
                    let text = s.rows.map(renderer.renderPlain).joined(separator: "\n")
                    if text != s.lastPlainText { sink.write(text + "\n") }
                }
            case .none:
                break
            }
            s.shown = false
            s.onScreen = nil
            s.rowsOnScreen = 0
        }
    }

    private func tick(at time: Double) -> Int {
        // `time` is the line's own clock (seconds since it began, finite) over a positive step bufprobe
        // sets (0.1 s): far inside Int's range, so the conversion cannot trap.
        Int((time / animationStep).rounded(.down))
    }

    /// The text that draws the latest rows at the current width (`LiveLineState.compose`), or nil when it
    /// equals the frame on screen (unless `force`).
    private func frame(_ s: inout LiveLineState, at time: Double, force: Bool, endingBelow: Bool = false) -> String? {
        guard !s.rows.isEmpty else { return nil }
        let step = tick(at: time)
        let columns = max(0, width() - 1)
        let rendered = s.rows.map { row in
            var snapshot = row
            if snapshot.isIndeterminate { snapshot.tick = step }
            return renderer.render(snapshot, width: columns)
        }
        return s.compose(rendered, step: step, at: time, force: force, endingBelow: endingBelow)
    }

    private func plainQuietPeriodOver(_ s: LiveLineState, at time: Double) -> Bool {
        time - (s.shownAt ?? time) >= plainInterval
    }

    private func plainLine(_ s: inout LiveLineState, at time: Double) {
        guard let latest = s.latest else { return }
        let text = s.rows.map(renderer.renderPlain).joined(separator: "\n")
        sink.write(text + "\n")
        s.lastPlainText = text
        s.lastPlain = time
        s.lastPlainState = latest.state
        s.pending = false
    }

    private func startAutomaticRefresh() {
        guard mode != .none else { return }
        let interval = mode == .tty ? minimumInterval : 1
        let resizes = mode == .tty
        state.withLock { s in
            let queue = DispatchQueue(label: "bufprobe.live-line")
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
            timer.setEventHandler { [weak self] in self?.refresh() }
            timer.resume()
            s.sources.append(DispatchSourceBox(timer))
            if resizes {
                let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
                resize.setEventHandler { [weak self] in self?.resized() }
                resize.resume()
                s.sources.append(DispatchSourceBox(resize))
            }
        }
    }
}

private let currentLine = Mutex<LiveLine?>(nil)
