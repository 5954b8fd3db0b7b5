import Testing
import ProgressLine

@Suite("Terminal environment decisions")
struct TerminalEnvironmentTests {
    private func env(tty: Bool, _ variables: [String: String]) -> TerminalEnvironment {
        TerminalEnvironment(isTerminal: tty, variables: variables)
    }

    @Test("auto output is tty on a terminal, plain on a pipe or a dumb terminal; explicit choices win")
    func outputMode() {
        #expect(env(tty: true, ["TERM": "xterm"]).outputMode(requested: nil) == .tty)
        #expect(env(tty: false, ["TERM": "xterm"]).outputMode(requested: nil) == .plain)
        #expect(env(tty: true, ["TERM": "dumb"]).outputMode(requested: nil) == .plain)
        #expect(env(tty: false, [:]).outputMode(requested: .tty) == .tty)
        #expect(env(tty: true, [:]).outputMode(requested: OutputMode.none) == OutputMode.none)
    }

    @Test("auto colors are off with NO_COLOR, TERM=dumb, no terminal, or outside tty mode")
    func colorMode() {
        let term = env(tty: true, ["TERM": "xterm-256color"])
        #expect(term.colorMode(requested: .auto, output: .tty) == .ansi256)
        #expect(env(tty: true, ["TERM": "xterm-256color", "NO_COLOR": "1"]).colorMode(requested: .auto, output: .tty) == .none)
        #expect(env(tty: true, ["TERM": "xterm", "NO_COLOR": ""]).colorMode(requested: .auto, output: .tty) == .ansi16)
        #expect(env(tty: false, ["TERM": "xterm"]).colorMode(requested: .auto, output: .tty) == .none)
        #expect(env(tty: true, ["TERM": "dumb"]).colorMode(requested: .auto, output: .tty) == .none)
        #expect(term.colorMode(requested: .always, output: .plain) == .none)
        #expect(term.colorMode(requested: .never, output: .tty) == .none)
        #expect(env(tty: false, ["NO_COLOR": "1"]).colorMode(requested: .always, output: .tty) == .ansi16)
        #expect(env(tty: true, ["TERM": "xterm", "COLORTERM": "truecolor"]).colorMode(requested: .auto, output: .tty) == .truecolor)
        #expect(term.colorMode(requested: .ansi16, output: .tty) == .ansi16)
    }

    @Test("glyphs are Unicode only for a UTF-8 locale, LC_ALL first")
    func glyphs() {
        #expect(env(tty: true, ["LANG": "en_US.UTF-8"]).glyphSet(requested: nil) == .unicode)
        #expect(env(tty: true, ["LANG": "de_DE.utf8"]).glyphSet(requested: nil) == .unicode)
        #expect(env(tty: true, ["LANG": "C"]).glyphSet(requested: nil) == .ascii)
        #expect(env(tty: true, [:]).glyphSet(requested: nil) == .ascii)
        #expect(env(tty: true, ["LC_ALL": "C", "LANG": "en_US.UTF-8"]).glyphSet(requested: nil) == .ascii)
        #expect(env(tty: true, ["LC_ALL": "", "LC_CTYPE": "C.UTF-8"]).glyphSet(requested: nil) == .unicode)
        #expect(env(tty: true, ["LANG": "en_US.UTF-8", "TERM": "dumb"]).glyphSet(requested: nil) == .ascii)
        #expect(env(tty: true, ["LANG": "C"]).glyphSet(requested: .unicode) == .unicode)
    }
}
