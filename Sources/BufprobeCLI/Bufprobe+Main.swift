import ArgumentParser
import Foundation
import ProgressLine
import BufprobeCommands
import BufprobeOutput

extension Bufprobe {
    /// Usage of the root command, the line under a usage error that names no subcommand.
    static var rootUsage: String { "bufprobe <command> [<options>]  (commands: \((commandNames + ["help"]).joined(separator: ", ")))" }

    /// The subcommands' names, in help order.
    static var commandNames: [String] { configuration.subcommands.map { $0._commandName } }

    /// Runs bufprobe with the process's arguments and ends the process through `Termination`, the one
    /// owner of the exit status (a signal handler or a failed write to stdout may claim it first).
    /// ArgumentParser's own `main()` would call `exit` itself, racing the Ctrl-C handler; its messages
    /// (help, usage errors) go through bufprobe's writers here instead, so a full or closed stdout is an
    /// error, not a trap. The executable calls `StandardStreams.prepare()` before it.
    public static func runAndExit() async {
        let code = await execute(Array(CommandLine.arguments.dropFirst()))
        Termination.exit(code)
    }

    /// Parses `arguments`, runs the command and returns the exit code. Help, `--version` and completion
    /// scripts go to stdout with 0; every usage mistake is one `error:` sentence and the command's usage
    /// line on stderr with 64 (a mistyped command gets a suggestion); a command's own failures keep the
    /// codes documented in the help.
    public static func execute(_ arguments: [String]) async -> Int32 {
        if let mistake = commandMistake(arguments) {
            Diagnostics.standardError(mistake.description)
            return UsageError.exitCode
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let usageError as UsageError {
            // A mistake a command finds while running (a script's field, a missing option pair).
            Diagnostics.standardError(usageError.description)
            return UsageError.exitCode
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                let text = fullMessage(for: error)
                Diagnostics.standardOutput(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
                return 0
            }
            guard code == .validationFailure else {
                Diagnostics.error(message(for: error))
                return code.rawValue
            }
            let usageError = UsageError(
                parserMessage: withOptionHint(message(for: error), arguments: arguments), usage: usage(for: arguments))
            Diagnostics.standardError(usageError.description)
            return UsageError.exitCode
        }
    }

    /// The usage line of the subcommand `arguments` start with, else the root's.
    static func usage(for arguments: [String]) -> String {
        guard let first = arguments.first,
            let command = configuration.subcommands.first(where: { $0._commandName == first })
        else { return rootUsage }
        return command.oneLineUsage
    }

    /// A first word that is not a command (`bufprobe prob FILE`), or `help` for one that does not exist:
    /// found before ArgumentParser, which would say "2 unexpected arguments" or print the root help.
    static func commandMistake(_ arguments: [String]) -> UsageError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = commandNames
        let list = "the commands are \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "")"
        if first == "help" {
            guard let name = arguments.dropFirst().first, !name.hasPrefix("-"), !names.contains(name) else { return nil }
            let hint = suggestion(for: name).map { "did you mean \($0)?" } ?? "\(list)."
            return UsageError("there is no command '\(name)'; \(hint)", usage: rootUsage)
        }
        guard !names.contains(first) else { return nil }
        if let name = suggestion(for: first) {
            return UsageError("'\(first)' is not a command; did you mean \(name)?", usage: rootUsage)
        }
        // `bufprobe clip.mp4`: the user meant to look at the file.
        if FileManager.default.fileExists(atPath: first) || first.contains("://") {
            return UsageError(
                "'\(first)' is not a command; did you mean bufprobe probe \(first)?", usage: rootUsage)
        }
        return UsageError("'\(first)' is not a command; \(list).", usage: rootUsage)
    }

    /// The command `word` most likely meant: one it starts, or one at most two edits away.
    static func suggestion(for word: String) -> String? {
        let lower = word.lowercased()
        if lower.count >= 2, let name = commandNames.first(where: { $0.hasPrefix(lower) }) { return name }
        let scored = commandNames.map { (name: $0, distance: editDistance(lower, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    /// Levenshtein distance (insertions, deletions, substitutions), for command suggestions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
