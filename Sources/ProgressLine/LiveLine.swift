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
    private let state = Mutex(State())

    private struct State {
        var shown = false
        var finished = false
        var latest: ProgressSnapshot?
        var pending = false
        var onScreen: String?
        var lastDraw = -Double.infinity
        var lastTick: Int?
        var lastPlain: Double?
        var lastPlainState: PlaybackStateWord?
        var lastPlainText: String?
        var shownAt: Double?
        var sources: [DispatchSourceBox] = []
    }

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
            sink.write((s.onScreen != nil ? "\r\u{1B}[K" : "") + "\u{1B}[?25h")
            sink.cursorVisibilityChanged(hidden: false)
            s.onScreen = nil
        }
    }

    /// Posts the newest state; drawn now if the rate limit allows, else by the next `refresh()`.
    public func update(_ snapshot: ProgressSnapshot) {
        state.withLock { s in
            guard !s.finished else { return }
            s.latest = snapshot
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
            guard !s.finished, s.shown, let latest = s.latest else { return }
            let time = now()
            switch mode {
            case .tty:
                guard time - s.lastDraw >= minimumInterval else { return }
                let animating = latest.isIndeterminate && s.lastTick != tick(at: time)
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
                sink.write("\r\u{1B}[K" + clean + "\n" + (frame(&s, at: now(), force: true) ?? ""))
            } else {
                sink.write(clean + "\n")
            }
        }
    }

    /// Ends the line: draws `final` (or the latest snapshot), then leaves it in place (`keep`) or
    /// erases it, and restores the cursor. Later calls of any method draw nothing.
    public func finish(final: ProgressSnapshot? = nil, keep: Bool = true) {
        finish(keep: keep, always: false) { latest in final ?? latest }
    }

    /// Ends the line with the latest snapshot relabelled `Interrupted` (Ctrl-C).
    public func finishInterrupted() {
        finish(keep: true, always: true) { latest in
            // With nothing measured yet there is no time to show, so the frame is the word alone.
            var snapshot = latest ?? ProgressSnapshot(state: .interrupted, isIndeterminate: true)
            snapshot.state = .interrupted
            return snapshot
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

    private func finish(keep: Bool, always: Bool, final: (ProgressSnapshot?) -> ProgressSnapshot?) {
        state.withLock { s in
            guard !s.finished else { return }
            s.finished = true
            s.latest = final(s.latest)
            for source in s.sources { source.cancel() }
            s.sources.removeAll()
            switch mode {
            case .tty:
                var out = ""
                if keep, s.latest != nil {
                    out += (frame(&s, at: now(), force: true) ?? "") + "\n"
                } else if s.onScreen != nil {
                    out += "\r\u{1B}[K"
                }
                if s.shown { out += "\u{1B}[?25h" }
                if !out.isEmpty { sink.write(out) }
                if s.shown { sink.cursorVisibilityChanged(hidden: false) }
            case .plain:
                // A job that never printed a status line ends silently too: a pipe or a CI log gets
                // no progress chatter for work that took less than one interval.
                // The final line is not repeated when the last status line already said it (a state
                // change to Ended is printed as it happens).
                if let latest = s.latest, always || s.lastPlain != nil {
                    let text = renderer.renderPlain(latest)
                    if text != s.lastPlainText { sink.write(text + "\n") }
                }
            case .none:
                break
            }
            s.shown = false
            s.onScreen = nil
        }
    }

    private func tick(at time: Double) -> Int {
        Int((time / animationStep).rounded(.down))
    }

    /// The text that draws the latest snapshot, or nil when it equals the frame on screen (unless
    /// `force`); records what is on screen.
    private func frame(_ s: inout State, at time: Double, force: Bool) -> String? {
        guard var snapshot = s.latest else { return nil }
        let step = tick(at: time)
        if snapshot.isIndeterminate { snapshot.tick = step }
        let rendered = renderer.render(snapshot, width: max(0, width() - 1))
        s.pending = false
        s.lastTick = step
        if !force && rendered == s.onScreen { return nil }
        s.onScreen = rendered
        s.lastDraw = time
        // The cursor is parked at column 0: an echoed ^C or keystroke then lands inside the frame (and
        // is overwritten by the next one) instead of wrapping to a new row, and a terminal that
        // reflows the line when it narrows keeps the cursor at the line's first row.
        return "\r" + rendered + "\u{1B}[K\r"
    }

    private func plainQuietPeriodOver(_ s: State, at time: Double) -> Bool {
        time - (s.shownAt ?? time) >= plainInterval
    }

    private func plainLine(_ s: inout State, at time: Double) {
        guard let latest = s.latest else { return }
        let text = renderer.renderPlain(latest)
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

// Dispatch sources are thread-safe objects that Dispatch does not mark Sendable; the line only
// creates and cancels them under its lock.
private struct DispatchSourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol
    init(_ source: any DispatchSourceProtocol) { self.source = source }
    func cancel() { source.cancel() }
}
