public import ArgumentParser
import BufprobeCommands
import BufprobeOutput

/// The root `bufprobe` command (in the executable, which alone sees every command: `serve` lives on
/// BufprobeServe, the one target with SwiftNIO): tells whether media will play smoothly and where it stalls.
public struct Bufprobe: AsyncParsableCommand {
    /// The help text, with every command's exit codes; the subcommands are this target's plus the ones
    /// `add(_:)` registered.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "bufprobe",
            abstract: "Tell whether media will play smoothly, and where it stalls.",
            discussion: """
                Examples:
                  bufprobe probe samples/gap.ts              what is in it, gaps, needs
                  bufprobe check https://cdn.example.net/live/master.m3u8
                  bufprobe simulate samples/h264-aac.mp4 --bandwidth 150k
                  bufprobe validate https://cdn.example.net/vod/master.m3u8
                  bufprobe help serve                        a command's examples, options

                Exit codes (every command):
                  0   success (probe: read to the end; check: pass; simulate: ran;
                      serve: stopped by SIGTERM or Ctrl-C after its checks ended)
                  1   check: degraded (played, but crossed a threshold: --max-stalls,
                      --max-startup, --max-rebuffer-ratio...);
                      probe: the --plot file could not be written;
                      serve: the address could not be listened on;
                      validate: must-fix findings
                  2   the input could not be opened or is not media; check: fail;
                      validate: the input is not a readable HLS playlist
                  3   probe, simulate: the media stops short (truncated, damaged); the
                      report covers what was read (check: fail, 2, the same warning)
                  4   simulate: the buffer policy a --player preset derives from the
                      media cannot play it
                  64  usage error (bad command, option or value)
                  74  results could not be written to stdout (full disk, closed pipe)
                  130 interrupted (Ctrl-C); SIGTERM, SIGHUP, SIGQUIT: 128 + signal number

                Durations everywhere: 250ms, 1.5s, 2m, 1h, 1h30m, 1:30 or plain seconds.
                Rates everywhere: 400k (bit/s, as ffmpeg), 500kbit, 2Mbit, 2Mbps, 250kB/s;
                0, and a number without a unit below 1000 (150), are refused.
                """,
            version: BufprobeVersion.full,
            subcommands: [Probe.self, Check.self, Simulate.self, Validate.self, Serve.self]
        )
    }

    public init() {}
}
