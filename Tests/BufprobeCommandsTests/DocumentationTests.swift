import Foundation
import Testing
import TestSupport

/// The README and docs/ stay true: the probe and simulate outputs the README shows are what the binary
/// prints for the same command, and every relative link of README.md and docs/*.md names a file that exists
/// and, with an anchor, a heading of that file. And no tracked file names a folder of one machine.
@Suite("docs: the README's examples and the links of README.md and docs/")
struct DocumentationTests {
    static let root = BufprobeProcess.packageRoot

    static func text(_ page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    /// The output lines of the README's console block that starts with `$ command`.
    static func readmeOutput(of command: String) throws -> String {
        let readme = try text("README.md")
        let start = try #require(readme.range(of: "```console\n$ \(command)\n"), "the README shows `\(command)`")
        let rest = readme[start.upperBound...]
        let end = try #require(rest.range(of: "```"))
        return String(rest[..<end.lowerBound])
    }

    /// `text` with the one wall-clock figure of probe's text output (its read time) masked.
    static func wallTimeMasked(_ text: String) -> String {
        text.replacing(#/read to the end in [0-9.]+ s/#, with: "read to the end in N s")
    }

    @Test(
        "the README's probe and simulate examples are what the binary prints",
        arguments: [["probe", "samples/gap.ts"], ["simulate", "samples/h264-aac.mp4", "--bandwidth", "150kbit"]])
    func examples(arguments: [String]) throws {
        let shown = try Self.readmeOutput(of: "bufprobe " + arguments.joined(separator: " "))
        let run = try BufprobeProcess.run(arguments.map { $0.hasPrefix("samples/") ? Self.root.appendingPathComponent($0).path : $0 })
        #expect(run.status == 0, "\(run.stderr)")
        let printed = run.stdout.replacingOccurrences(of: Self.root.path + "/", with: "")
        #expect(Self.wallTimeMasked(printed) == Self.wallTimeMasked(shown))
    }

    /// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`.
    static func slug(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }

    /// The anchors of a Markdown page's headings (code blocks skipped; a repeated heading gets `-1`, `-2`...).
    static func anchors(of text: String) -> Set<String> {
        var anchors = Set<String>()
        var seen: [String: Int] = [:]
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode, let match = line.wholeMatch(of: #/#+ (.*)/#) else { continue }
            let slug = slug(String(match.1))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    @Test("README.md shows its first example's output within its first 40 lines")
    func firstExampleEarly() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        let block = try #require(lines.firstIndex { $0.hasPrefix("```console") })
        // 0-based: the block's first line is the command, the next its output.
        #expect(block + 3 <= 40, "the first console block opens on line \(block + 1)")
    }

    @Test("README.md is a guide of at most 300 lines, Benchmarks/README.md a results page under 400, and no source file is over 400 lines")
    func lengths() throws {
        #expect(try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count <= 301)
        #expect(try Self.text("Benchmarks/README.md").split(separator: "\n", omittingEmptySubsequences: false).count < 401)
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let swift = files.filter { $0.pathExtension == "swift" }
        #expect(swift.count > 100, "the sources were found")
        for file in swift {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(file.path.dropFirst(sources.path.count + 1)) has \(lines) lines")
        }
    }

    @Test("every relative link of README.md and docs/*.md names a file, and a heading in it when it has an anchor")
    func links() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        var anchors: [String: Set<String>] = [:]
        for page in pages { anchors[page] = Self.anchors(of: try Self.text(page)) }
        // The docs cite the benchmarks' sections as their sources.
        anchors["Benchmarks/README.md"] = Self.anchors(of: try Self.text("Benchmarks/README.md"))
        var checked = 0
        for page in pages {
            let folder = Self.root.appendingPathComponent(page).deletingLastPathComponent()
            for match in try Self.text(page).matches(of: #/\]\(([^)\s]+)\)/#) {
                let target = String(match.1)
                if target.contains("://") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty
                    ? page
                    : String(folder.appendingPathComponent(String(parts[0])).standardized.path.dropFirst(Self.root.standardized.path.count + 1))
                checked += 1
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path), "\(page): \(target) names no file")
                if parts.count == 2, file.hasSuffix(".md") {
                    #expect(anchors[file]?.contains(String(parts[1])) == true, "\(page): \(target) names no heading of \(file)")
                }
            }
        }
        // The pages link to each other dozens of times; far fewer means the links were not found at all.
        #expect(checked > 40, "only \(checked) links found")
    }

    /// Folders that exist on one machine only: a build machine's `/work` and `/root`, a Mac's `/Users` (put
    /// together from words, so that this file does not name them itself).
    static let machineFolders = ["work", "root", "Users"].map { "/\($0)/" }

    /// `/home/`, before the name of a machine's user.
    static let home = "/" + "home/"

    /// Home folders that are made-up examples, not a machine's: `TerminalWidthTests` shortens a sample path
    /// in the home folder of a user named `user`.
    static let exampleHomes: Set<String> = ["user"]

    /// Whether the character before `index` belongs to a path or a variable (`out/work`, `$OUT/root`): a
    /// folder found there is relative, not a machine's.
    static func continuesPath(_ line: String, before index: String.Index) -> Bool {
        guard index > line.startIndex else { return false }
        let previous = line[line.index(before: index)]
        return previous.isLetter || previous.isNumber || "._-~$})".contains(previous)
    }

    /// The machine paths in one line: each absolute use of `machineFolders`, and each absolute `/home/<name>/`
    /// whose name is not an example's.
    static func machinePaths(in line: String) -> [String] {
        var found: [String] = []
        for folder in machineFolders + [home] {
            var rest = line[...]
            while let match = rest.range(of: folder) {
                rest = line[match.upperBound...]
                if continuesPath(line, before: match.lowerBound) { continue }
                if folder != home {
                    found.append(folder)
                    continue
                }
                let name = rest.prefix { $0.isLetter || $0.isNumber || "._-".contains($0) }
                if !name.isEmpty, rest.dropFirst(name.count).first == "/", !exampleHomes.contains(String(name)) {
                    found.append("\(home)\(name)/")
                }
            }
        }
        return found
    }

    /// Whether the package is a git checkout, whose tracked files `git ls-files` lists.
    static let isGitCheckout = FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)

    @Test(
        "no tracked file names a folder of one machine (/work, /root, /Users, /home/<name> but a made-up example)",
        .enabled(if: DocumentationTests.isGitCheckout, "not a git checkout: no list of tracked files"))
    func noMachinePaths() throws {
        // The rule, on lines made here: a machine's folders are found; an example's home and relative paths not.
        // (Each path spelled in two parts, so that this file does not contain it.)
        #expect(Self.machinePaths(in: "BUFPROBE=/" + "work/main/.build/debug/bufprobe") == ["/" + "work/"])
        #expect(Self.machinePaths(in: "cd /" + "home/alice/bufprobe && ls /" + "Users/") == ["/" + "Users/", "/" + "home/alice/"])
        #expect(Self.machinePaths(in: "/" + "home/user/media/clip.mp4, Benchmarks/out/" + "work/, $OUT/" + "root/").isEmpty)

        // safe.directory: the checkout may belong to another user than the one running the tests.
        let listed = try BufprobeProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "-c", "safe.directory=*", "ls-files", "-z"], timeout: 60,
            directory: Self.root)
        #expect(listed.status == 0, "git ls-files: \(listed.stderr)")
        var read = 0
        var found: [String] = []
        for file in listed.stdout.split(separator: "\0").map(String.init) {
            let url = Self.root.appendingPathComponent(file)
            // A file deleted in the work tree and not yet committed is listed too.
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let data = try Data(contentsOf: url)
            let text = String(decoding: data, as: UTF8.self)
            read += 1
            guard (Self.machineFolders + [Self.home]).contains(where: { text.range(of: $0) != nil }) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for path in Self.machinePaths(in: String(line)) {
                    found.append("\(file):\(index + 1): \(path) in \(line.prefix(160))")
                }
            }
        }
        #expect(
            found.isEmpty,
            "machine paths (write a path relative to the repository, $OUT or a placeholder):\n\(found.joined(separator: "\n"))")
        // Hundreds of files are tracked; far fewer means the list was not read.
        #expect(read > 300, "only \(read) tracked files read")
    }
}
