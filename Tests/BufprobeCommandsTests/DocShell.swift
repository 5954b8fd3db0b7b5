import Foundation
import TestSupport

/// How the documentation's shell examples are run, for every test that runs them (`ReadmeExampleTests`,
/// `CIRecipeTests`): bash, as a reader's shell, with the built binary first on `PATH`.
enum DocShell {
    /// `PATH` with the built binary's folder first, so that `bufprobe` is the one under test.
    static var path: String {
        BufprobeProcess.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// Runs `script` with `bash -c` (`options` before it: `-e` stops at the first failing command, as a
    /// CI runner does) in `directory`, with `environment` added.
    static func run(
        _ script: String, options: [String] = [], environment: [String: String] = [:], timeout: Double = 60,
        directory: URL = BufprobeProcess.packageRoot
    ) throws -> BufprobeProcess.Result {
        try BufprobeProcess.run(
            URL(fileURLWithPath: "/bin/bash"), options + ["-c", script], environment: ["PATH": path, "COLUMNS": "100"].merging(environment) { $1 },
            timeout: timeout, directory: directory)
    }

    /// The text of every fenced block of `markdown` whose fence names `language` (```` ```sh ````).
    static func fenced(_ markdown: String, language: String) -> [String] {
        var blocks: [String] = []
        var current: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```" + language { current = "" }
            } else if line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else {
                current! += line + "\n"
            }
        }
        return blocks
    }
}
