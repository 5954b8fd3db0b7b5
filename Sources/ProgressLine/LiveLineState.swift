/// What `LiveLine` has drawn and when, guarded by the line's lock: the rows posted, what is on screen, the
/// rate limit's and the plain mode's bookkeeping; and the composition of a frame from rendered rows, which
/// records what it put on screen.
struct LiveLineState {
    var shown = false
    var finished = false
    /// One snapshot per row, top to bottom (several inputs at once); empty before the first update.
    var rows: [ProgressSnapshot] = []
    var pending = false
    var onScreen: String?
    var rowsOnScreen = 0
    /// The first row: the line's state for everything that has one (plain mode, clicks, finish).
    var latest: ProgressSnapshot? {
        get { rows.first }
        set { rows = newValue.map { [$0] } ?? [] }
    }
    var lastDraw = -Double.infinity
    var lastTick: Int?
    var lastPlain: Double?
    var lastPlainState: PlaybackStateWord?
    var lastPlainText: String?
    var shownAt: Double?
    var sources: [DispatchSourceBox] = []

    /// Erases what the line drew: its row, or every row from the first down.
    func erase() -> String {
        rowsOnScreen > 1 ? "\r\u{1B}[J" : "\r\u{1B}[K"
    }

    /// The text that draws `rendered` (one string per row, animation `step` at `time`), or nil when it
    /// equals the frame on screen (unless `force`); records what is on screen. The cursor ends at column 0
    /// of the first row, or below the last row when `endingBelow` (the final frame, which stays above what
    /// follows).
    mutating func compose(_ rendered: [String], step: Int, at time: Double, force: Bool, endingBelow: Bool) -> String? {
        let joined = rendered.joined(separator: "\n")
        pending = false
        lastTick = step
        if !force && joined == onScreen { return nil }
        let previousRows = rowsOnScreen
        onScreen = joined
        rowsOnScreen = rendered.count
        lastDraw = time
        var out = "\r" + rendered.joined(separator: "\u{1B}[K\n") + "\u{1B}[K"
        // Fewer rows than before (an input finished): erase the rows left below.
        if rendered.count > 1 || previousRows > 1 { out += "\u{1B}[J" }
        if endingBelow { return out + "\r\n" }
        // The cursor is parked at column 0 of the first row: an echoed ^C or keystroke then lands
        // inside the frame (and is overwritten by the next one) instead of wrapping to a new row, and
        // a terminal that reflows the line when it narrows keeps the cursor at the line's first row.
        if rendered.count > 1 { out += "\u{1B}[\(rendered.count - 1)A" }
        return out + "\r"
    }
}
