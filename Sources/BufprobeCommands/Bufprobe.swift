public import ArgumentParser

/// The root `bufprobe` command: tells whether media will play smoothly and where it stalls.
public struct Bufprobe: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bufprobe",
        abstract: "Tell whether media will play smoothly, and where it stalls.",
        discussion: """
            Exit codes (every command):
              0   success (probe: read to the end; check: pass; simulate: ran)
              1   check: degraded (played, but stalled or started slowly);
                  probe: the --plot file could not be written
              2   the input could not be opened or is not media; check: fail
              3   probe: reading started but stopped early (truncated, damaged)
              64  usage error (bad command, option or value)
              74  results could not be written to stdout (full disk, closed pipe)
              130 interrupted (Ctrl-C); SIGTERM, SIGHUP, SIGQUIT: 128 + signal number

            Durations everywhere: 250ms, 1.5s, 2m, 1h, 1h30m, 1:30 or plain seconds.
            Rates everywhere: 400k (bit/s, as ffmpeg), 500kbit, 2Mbit, 2Mbps, 250kB/s.
            """,
        version: BufprobeVersion.full,
        subcommands: [Probe.self, Check.self, Simulate.self]
    )

    public init() {}
}
