public import ArgumentParser

/// The root `bufprobe` command: tells whether media will play smoothly and where it stalls.
public struct Bufprobe: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bufprobe",
        abstract: "Tell whether media will play smoothly, and where it stalls.",
        discussion: """
            Exit codes (every command):
              0   success (probe: read to the end; check: pass; simulate: ran)
              1   check: degraded (played, but stalled or started slowly); probe: --plot file not written
              2   the input could not be opened or is not media; check: fail
              3   probe: reading started but stopped early (truncated or damaged input)
              64  usage error (bad option or value)
              74  the results could not be written to stdout (full disk, closed stdout or pipe)
              130 interrupted (Ctrl-C); SIGTERM, SIGHUP, SIGQUIT: 128 + the signal's number
            """,
        version: BufprobeVersion.string,
        subcommands: [Probe.self, Check.self, Simulate.self]
    )

    public init() {}
}
