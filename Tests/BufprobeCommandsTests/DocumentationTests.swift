import Foundation
import Testing
import TestSupport

/// The README and docs/ stay true: the probe and simulate outputs the README shows are what the binary
/// prints for the same command, and every relative link of README.md and docs/*.md names a file that exists
/// and, with an anchor, a heading of that file.
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
}
