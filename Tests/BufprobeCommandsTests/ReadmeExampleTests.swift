import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The README's examples cannot drift: every `console` block of README.md is run, as a shell runs it, with
/// the real binary on `PATH`, against the demo origin `scripts/demo-origin.sh` starts, and what it prints
/// on stdout is what the block shows below its commands, every number masked (timings, rates and counts
/// vary from run to run; the lines, words and units may not).
@Suite("docs: every console block of the README runs against scripts/demo-origin.sh and prints what it shows")
struct ReadmeExampleTests {
    /// One `console` block: its commands (a `$ ` line and the lines it continues with a trailing `\`), and
    /// the output shown under them.
    struct Block {
        var commands: [String] = []
        var output = ""
    }

    /// The `console` blocks of a Markdown text.
    static func blocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var continues = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```console" { current = Block() }
                continue
            }
            if line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else if continues, let last = current?.commands.indices.last {
                current?.commands[last] += "\n" + line
                continues = line.hasSuffix("\\")
            } else if line.hasPrefix("$ ") {
                current?.commands.append(String(line.dropFirst(2)))
                continues = line.hasSuffix("\\")
            } else {
                current?.output += line + "\n"
            }
        }
        return blocks
    }

    /// `text` with every number (`1`, `3.314`, `267.2`, `1,270`, `0.77x`) as `N`.
    static func masked(_ text: String) -> String {
        text.replacing(#/[0-9][0-9.,]*[0-9]|[0-9]/#, with: "N")
    }

    /// The README's ports, and the ones this run uses instead (others may run the tests at the same time).
    static let originPort = "8081"
    static let servePort = "9788"

    @Test("the README's console blocks print what it shows, numbers masked (a probe, a simulate, checks of the slow and the live URL, serve)")
    func readmeExamples() async throws {
        let readme = try String(contentsOf: BufprobeProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.blocks(of: readme)
        #expect(blocks.count >= 5, "the README's console blocks: \(blocks.map(\.commands))")
        let ports = [Self.originPort: String(try CheckServers.freePort()), Self.servePort: String(try CheckServers.freePort())]
        func local(_ text: String) -> String {
            ports.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
        let origin = try DemoOrigin(port: Int(ports[Self.originPort]!)!)
        defer { origin.stop() }
        try origin.waitForLiveSegments(4)

        let results = await withTaskGroup(of: (Int, BufprobeProcess.Result?).self) { group in
            for (index, block) in blocks.enumerated() {
                // A command left running in the background (serve ... &) is stopped after the last one.
                let script = local(block.commands.joined(separator: "\n")) + "\nkill $(jobs -p) 2>/dev/null; wait\n"
                group.addTask {
                    let run = try? DocShell.run(script)
                    return (index, run)
                }
            }
            var results = [BufprobeProcess.Result?](repeating: nil, count: blocks.count)
            for await (index, run) in group { results[index] = run }
            return results
        }
        for (block, run) in zip(blocks, results) {
            let run = try #require(run, "\(block.commands) did not run")
            #expect(!block.output.isEmpty, "\(block.commands): the README shows no output")
            let printed = run.stdout.replacingOccurrences(of: BufprobeProcess.packageRoot.path + "/", with: "")
            #expect(
                Self.masked(printed) == Self.masked(local(block.output)),
                "\(block.commands.joined(separator: "; ")) printed:\n\(printed)\nstderr:\n\(run.stderr)")
        }
    }

    @Test("a README console block is its commands, continued lines joined, then its output")
    func parsing() {
        let markdown = """
            ```sh
            $ not this
            ```
            ```console
            $ bufprobe a \\
                | grep b
            out 1
            $ c &
            $ d
            out 2
            ```
            """
        let blocks = Self.blocks(of: markdown)
        #expect(blocks.count == 1)
        #expect(blocks.first?.commands == ["bufprobe a \\\n    | grep b", "c &", "d"])
        #expect(blocks.first?.output == "out 1\nout 2\n")
        #expect(Self.masked("at 2.816 s for 2.204 s, 1,270 checks, 0.77x, h264") == "at N s for N s, N checks, Nx, hN")
    }
}
