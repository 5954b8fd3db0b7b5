/// How the live line reaches the user.
public enum OutputMode: String, Sendable, Hashable, CaseIterable {
    /// One line redrawn in place with `\r` and `ESC[K`, colors allowed, cursor hidden meanwhile.
    case tty
    /// No escape codes: a status line every few seconds (and at each state change), plus the final line.
    case plain
    /// No progress output at all (lines printed above still appear).
    case none
}
