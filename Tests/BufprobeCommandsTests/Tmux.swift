import Foundation
import TestSupport

/// A tmux server of its own (its own socket), so tests never touch the user's sessions or each other.
struct Tmux {
    let socket = "bufprobe-test-\(UUID().uuidString.prefix(8))"

    @discardableResult
    func run(_ arguments: [String]) throws -> String { try Samples.run("tmux", ["-L", socket] + arguments) }

    /// Starts `command` in a detached `width`x40 session named `t`.
    func start(_ command: String, width: Int = 100) throws {
        _ = try Samples.run("tmux", ["-L", socket, "new-session", "-d", "-s", "t", "-x", String(width), "-y", "40", command], capture: false)
    }

    /// Whether the pane's cursor is visible.
    func cursorVisible() throws -> Bool {
        try run(["display-message", "-p", "-t", "t", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Whether the pane's terminal is in canonical (cooked) mode, as `stty` on its device says.
    func isCooked() throws -> Bool {
        let tty = try run(["display-message", "-p", "-t", "t", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let settings = try Samples.run("stty", ["-a", "-F", tty]).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        return settings.contains("icanon") && settings.contains("echo")
    }

    /// The visible screen, trailing blank lines dropped; with `escapes`, the color escape codes too.
    func screen(escapes: Bool = false) throws -> [String] {
        try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "t"])
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).reversed().drop(while: { $0.isEmpty }).reversed()
    }

    func waitFor(_ text: String, timeout: Double = 30) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = try screen()
            if lines.contains(where: { $0.contains(text) }) { return lines }
            usleep(100_000)
        }
        return try screen()
    }

    func stop() { _ = try? run(["kill-server"]) }
}
