import BufprobeCommands
@testable import CheckEngine
import Foundation
import MediaIO
import PlaybackModel
import Testing
import TestSupport

/// Help, usage errors and `--version`, through the real binary.
@Suite("Command-line help and usage errors")
struct CommandLineHelpTests {
    static let helpInvocations: [[String]] = [
        ["--help"], ["probe", "--help"], ["check", "--help"], ["simulate", "--help"], ["help"], ["help", "probe"],
        ["help", "check"], ["help", "simulate"], ["serve", "--help"], ["help", "serve"], ["validate", "--help"], ["help", "validate"],
    ]

    @Test("help fits 80 columns, and no indented line wraps back to column 0", arguments: helpInvocations)
    func helpFits(arguments: [String]) throws {
        let run = try BufprobeProcess.run(arguments, environment: ["COLUMNS": "80"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 10)
        var previous: Substring = ""
        for line in lines {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
            // A column-0 line right after an indented one is an indented line the parser had to wrap.
            let wrapped = !line.isEmpty && line.first != " " && previous.first == " "
            #expect(!wrapped, "wrapped to column 0: \(previous) / \(line)")
            previous = line
        }
    }

    @Test(
        "--player's help is one line per player (name, version, measured agreement) and a pointer to docs/model.md",
        arguments: ["check", "simulate"])
    func playerHelp(_ command: String) throws {
        let run = try BufprobeProcess.run([command, "--help"], environment: ["COLUMNS": "80"])
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.hasPrefix("--player <name>") })
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("--start-threshold <duration>") })
        let players = lines[start..<end].filter { line in PlayerPreset.allCases.contains { line.hasPrefix("\($0.rawValue): ") } }
        #expect(players.count == PlayerPreset.allCases.count, "\(lines[start..<end])")
        #expect(players.contains("shaka: Shaka Player 3.1; simulate agreed in 11 of 12 cases."))
        #expect(lines[start..<end].contains { $0.contains("docs/model.md") })
        #expect(end - start <= PlayerPreset.allCases.count + 6, "\(lines[start..<end])")
        // No ABR internals, no simulate-only sentence.
        #expect(!lines[start..<end].contains { $0.contains("estimator") || $0.contains("on simulate") }, "\(lines[start..<end])")
    }

    @Test("check's --max-startup is listed with the other verdict thresholds")
    func maxStartupWithThresholds() throws {
        let run = try BufprobeProcess.run(["check", "--help"], environment: ["COLUMNS": "80"])
        let section = try #require(run.stdout.components(separatedBy: "VERDICT THRESHOLDS:").dropFirst().first)
        let group = section.components(separatedBy: "\n\n").first ?? ""
        #expect(group.contains("--max-startup <duration>") && group.contains("--max-stalls <N>"), "\(group)")
    }

    @Test("every help opens with 3 to 5 examples within its first 15 lines", arguments: helpInvocations)
    func examplesFirst(arguments: [String]) throws {
        let run = try BufprobeProcess.run(arguments, environment: ["COLUMNS": "80"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "Examples:"), "\(arguments) has no Examples: section:\n\(run.stdout)")
        let examples = lines[(heading + 1)...].prefix { $0.hasPrefix("  ") }
        #expect((3...5).contains(examples.count), "\(examples)")
        #expect(heading + examples.count < 15, "\(arguments): the examples end on line \(heading + examples.count + 1)")
        for example in examples {
            #expect(example.hasPrefix("  bufprobe ") || example.hasPrefix("  curl "), "\(example)")
        }
    }

    /// The entries of a help's option lists: each `  -...` line with the deeper-indented lines under it.
    static func optionEntries(_ help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                entries.append(String(line))
            } else if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1] += "\n" + line
            } else if !entries.isEmpty, !entries[entries.count - 1].hasSuffix("\n") {
                entries[entries.count - 1] += "\n"
            }
        }
        return entries
    }

    @Test("no option's help gives its default twice (a hand-written one and ArgumentParser's)", arguments: helpInvocations)
    func defaultsOnce(arguments: [String]) throws {
        let run = try BufprobeProcess.run(arguments, environment: ["COLUMNS": "80"])
        let entries = Self.optionEntries(run.stdout)
        #expect(!entries.isEmpty)
        for entry in entries {
            let defaults = entry.matches(of: #/\(default[ :]|; default[ :]/#).count
            #expect(defaults <= 1, "\(arguments): \(entry)")
        }
        #expect(run.stdout.firstMatch(of: #/\(default[^)]*\)\.? *\n? *\(default/#) == nil)
    }

    @Test(
        "usage errors are one error: sentence and the command's usage line, exit 64",
        arguments: [
            (["prob", "x.ts"], "error: 'prob' is not a command; did you mean probe?", "usage: bufprobe <command>"),
            (["chekc"], "error: 'chekc' is not a command; did you mean check?", "usage: bufprobe <command>"),
            (["help", "nope"], "error: there is no command 'nope'; the commands are probe, check, simulate, validate and serve.",
             "usage: bufprobe <command>"),
            (["nonsense"], "error: 'nonsense' is not a command; the commands are probe, check, simulate, validate and serve.",
             "usage: bufprobe <command>"),
            (["probe"], "error: missing expected argument '<file> ...'.", "usage: bufprobe probe [<options>] <file> ..."),
            (["probe", "--nope", "x"], "error: unknown option '--nope'.", "usage: bufprobe probe [<options>]"),
            (["simulate", "--bandwidth", "-1"], "error: --bandwidth: '-1' must not be negative; expected a rate",
             "usage: bufprobe simulate [<options>]"),
            (["check", "--progress", "sometimes", "x"], "error: --progress does not take 'sometimes'",
             "usage: bufprobe check [<options>] <url> ..."),
            (["--nope"], "error: unknown option '--nope'.", "usage: bufprobe <command>"),
            // A mistyped option: the nearest of the command's own, else the command that has it.
            (["check", "--duraton", "5s", "x"], "error: unknown option '--duraton'. Did you mean '--duration'?",
             "usage: bufprobe check [<options>] <url> ..."),
            (["check", "--bandwith", "1M", "x"],
             "error: unknown option '--bandwith'. Did you mean '--bandwidth'? (an option of `simulate`, not `check`).",
             "usage: bufprobe check [<options>] <url> ..."),
            (["simulate", "--bandwith", "1M"], "error: unknown option '--bandwith'. Did you mean '--bandwidth'?",
             "usage: bufprobe simulate [<options>]"),
            (["probe", "--max-startup", "2s", "x"],
             "error: unknown option '--max-startup': an option of `check`, not `probe`.",
             "usage: bufprobe probe [<options>]"),
            (["serve", "--alow-target", "x"], "error: unknown option '--alow-target'. Did you mean '--allow-target'?",
             "usage: bufprobe serve [<options>]"),
        ] as [([String], String, String)])
    func usageError(arguments: [String], sentence: String, usage: String) throws {
        let run = try BufprobeProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(run.stderr)")
        #expect(lines.first?.hasPrefix(sentence) == true, "\(run.stderr)")
        #expect(lines.first?.hasSuffix(".") == true || lines.first?.hasSuffix("?") == true)
        #expect(lines.last?.hasPrefix(usage) == true, "\(run.stderr)")
    }

    @Test("--version prints bufprobe's version and the FFmpeg libraries' versions")
    func version() throws {
        let run = try BufprobeProcess.run(["--version"])
        #expect(run.status == 0)
        let versions = FFmpegVersions.current
        #expect(run.stdout.hasPrefix("bufprobe "))
        for line in ["ffmpeg \(versions.ffmpeg)", "libavformat \(versions.libavformat)",
                     "libavcodec \(versions.libavcodec)", "libavutil \(versions.libavutil)"] {
            #expect(run.stdout.contains(line + "\n"), "\(run.stdout)")
        }
        #expect(versions.libavformat.split(separator: ".").count == 3)
    }

    @Test(
        "the JSON reports carry bufprobe_version and ffmpeg_versions",
        arguments: [
            ["probe", "--json", BufprobeProcess.sample("h264-aac.ts")],
            ["check", "--json", "--progress", "none", BufprobeProcess.sample("h264-aac.ts")],
            ["simulate", "--json", "--bitrate", "1Mbit", "--duration", "5s", "--bandwidth", "2Mbit"],
        ])
    func jsonVersions(arguments: [String]) throws {
        let run = try BufprobeProcess.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["bufprobe_version"] as? String != nil)
        let versions = object?["ffmpeg_versions"] as? [String: String]
        #expect(versions?["libavformat"] == FFmpegVersions.current.libavformat)
        #expect(versions?["ffmpeg"] == FFmpegVersions.current.ffmpeg)
    }

    @Test(
        "completion scripts offer the values of --progress, --color and --variant and complete files",
        arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let run = try BufprobeProcess.run(["--generate-completion-script", shell])
        #expect(run.status == 0)
        for word in ["probe", "check", "simulate", "progress", "plain", "color", "truecolor", "variant", "lowest", "yaml"] {
            #expect(run.stdout.contains(word), "\(shell) completion lacks \(word)")
        }
    }

    @Test("the help the man page is generated from is a JSON document of every command")
    func manualSource() throws {
        let run = try BufprobeProcess.run(["--experimental-dump-help"])
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let command = object?["command"] as? [String: Any]
        let names = (command?["subcommands"] as? [[String: Any]])?.compactMap { $0["commandName"] as? String }
        #expect(names?.starts(with: ["probe", "check", "simulate"]) == true)
    }
}
