import ArgumentParser
import Foundation

extension Bufprobe {
    /// ArgumentParser's `Unknown option '--bandwith'.` with a hint when it gave none: the nearest option
    /// of the command the arguments name, or else the nearest option of another command, named with it
    /// (`check --bandwith` gets "Did you mean '--bandwidth'? (an option of `simulate`, not `check`)", and
    /// `probe --max-startup` "Unknown option '--max-startup': an option of `check`, not `probe`.").
    /// A message that is not about an unknown option, or that already has a suggestion, comes back as is.
    static func withOptionHint(_ message: String, arguments: [String]) -> String {
        guard !message.contains("Did you mean"),
            let match = message.firstMatch(of: #/Unknown option '(--[^'=]+)'/#)
        else { return message }
        let word = String(match.1)
        var stated = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if !stated.hasSuffix(".") { stated += "." }
        let command = arguments.first.flatMap { first in configuration.subcommands.first { $0._commandName == first } }
        let own = command.map { optionNames(of: $0) } ?? []
        if let name = nearest(word, among: own) { return "\(stated) Did you mean '\(name)'?" }
        // The nearest among the other commands' options; on a tie, the command listed first.
        let others = configuration.subcommands.filter { $0._commandName != command?._commandName }.compactMap { other in
            nearest(word, among: optionNames(of: other)).map { (command: other._commandName, name: $0) }
        }
        guard let best = others.min(by: { editDistance(word, $0.name) < editDistance(word, $1.name) }) else { return message }
        let owner = "an option of `\(best.command)`" + (command.map { ", not `\($0._commandName)`" } ?? "")
        return best.name == word ? "\(stated.dropLast()): \(owner)." : "\(stated) Did you mean '\(best.name)'? (\(owner))."
    }

    /// The long option names a command's help lists (`--bandwidth`, `--no-low-latency`...): the words that
    /// open an option's entry (two spaces, then the option), not options its prose mentions.
    static func optionNames(of command: any ParsableCommand.Type) -> [String] {
        helpMessage(for: command, columns: 10_000).split(separator: "\n").flatMap { line -> [String] in
            guard line.hasPrefix("  -") else { return [] }
            // `-v, --verbose`, `--bandwidth <rate>`, `--color/--no-color`: the entry's head ends at two spaces.
            let head = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            return head.split { $0 == " " || $0 == "," || $0 == "/" }.filter { $0.hasPrefix("--") }.map(String.init)
        }
    }

    /// The option in `names` nearest to `word` within two edits (a transposition counts as two), or one
    /// that `word` starts or that starts with `word` when it is at least four letters.
    static func nearest(_ word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(word, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 { return best.name }
        guard word.count >= 6 else { return nil }
        return names.first { $0.hasPrefix(word) || word.hasPrefix($0) }
    }
}
