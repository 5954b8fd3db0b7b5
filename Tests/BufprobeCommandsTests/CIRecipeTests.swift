import Foundation
import Testing
import TestSupport
import Yams

/// docs/ci.md's recipe runs as written: the GitHub job's check step, the GitLab job's script and every
/// `sh` block after them, with the built binary as `tools/bufprobe` and on `PATH`, against the demo origin
/// (`scripts/demo-origin.sh`), with one input and with several (`--json` is an object for one, an array
/// for several). What only a hosted runner does (apt, checkout, the release build) is checked instead: the
/// packages are the ones the built binary's libraries come from, the container is the OS it was built on,
/// and the build has the README's flags.
@Suite("docs: docs/ci.md's jobs and shell blocks run as written against scripts/demo-origin.sh")
struct CIRecipeTests {
    static let markdown = { () -> String in
        let file = BufprobeProcess.packageRoot.appendingPathComponent("docs/ci.md")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }()

    /// The YAML block that holds `key` at its top level, parsed.
    static func job(_ key: String) throws -> [String: Any] {
        let blocks = DocShell.fenced(markdown, language: "yaml")
        let text = try #require(blocks.first { $0.hasPrefix(key + ":") }, "docs/ci.md has no yaml block starting with \(key):")
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// The GitHub job `stream-gate`'s steps.
    static func githubSteps() throws -> (job: [String: Any], steps: [[String: Any]]) {
        let jobs = try #require(try job("jobs")["jobs"] as? [String: Any])
        let gate = try #require(jobs["stream-gate"] as? [String: Any])
        return (gate, try #require(gate["steps"] as? [[String: Any]]))
    }

    /// The GitLab job `stream-gate`.
    static func gitlabJob() throws -> [String: Any] { try #require(try job("stream-gate")["stream-gate"] as? [String: Any]) }

    /// A command only a hosted runner or a one-off build runs: checked, not run here.
    static func hostedOnly(_ script: String) -> Bool { script.contains("apt-get") || script.contains("swift build") }

    /// The `sh` blocks this machine runs (after a job wrote check.json), and those it only checks.
    static var shellBlocks: (run: [String], checked: [String]) {
        let blocks = DocShell.fenced(markdown, language: "sh")
        return (blocks.filter { !hostedOnly($0) }, blocks.filter(hostedOnly))
    }

    @Test("the GitHub check step and the GitLab script, then every sh block, exit 0 on the demo origin's streams, with one input and with two")
    func jobsRunAsWritten() throws {
        let github = try Self.githubSteps().steps.filter { ($0["run"] as? String).map { !Self.hostedOnly($0) } ?? false }
        #expect(github.count == 1, "one GitHub step runs bufprobe: \(github)")
        let githubStep = try #require(github.first)
        let githubVariable = try #require((githubStep["env"] as? [String: Any])?.keys.first, "the check step takes its URLs from env")
        let gitlab = try Self.gitlabJob()
        let gitlabScript = try #require(gitlab["script"] as? [String]).joined(separator: "\n")
        let gitlabVariable = try #require((gitlab["variables"] as? [String: Any])?.keys.first, "the job takes its URLs from variables")
        let runnable = Self.shellBlocks.run
        #expect(runnable.contains { $0.contains("jq ") }, "the JSON recipe is one of the blocks run")

        let origin = try DemoOrigin(port: try CheckServers.freePort())
        defer { origin.stop() }
        let inputs = ["h264-aac.mp4", "hls/master.m3u8"].map { "http://127.0.0.1:\(origin.port)/\($0)" }
        for (name, script, variable) in [("GitHub", try #require(githubStep["run"] as? String), githubVariable), ("GitLab", gitlabScript, gitlabVariable)] {
            for urls in [inputs, [inputs[0]]] {
                let directory = try CheckServers.temporaryDirectory("bufprobe-ci-recipe")
                defer { try? FileManager.default.removeItem(at: directory) }
                try FileManager.default.createDirectory(at: directory.appendingPathComponent("tools"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    at: directory.appendingPathComponent("tools/bufprobe"), withDestinationURL: BufprobeProcess.executable)
                // Both runners run a step's lines with -e: the first failing command fails the job.
                let job = try DocShell.run(script, options: ["-e"], environment: [variable: urls.joined(separator: " ")], directory: directory)
                #expect(job.status == 0, "\(name), \(urls.count) input(s): \(script)\n\(job.stderr)")
                for report in ["check.json", "check-junit.xml"] {
                    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(report).path), "\(name): \(report)")
                }
                for block in runnable {
                    let run = try DocShell.run(block, options: ["-e", "-o", "pipefail"], directory: directory)
                    #expect(run.status == 0, "\(name), \(urls.count) input(s): \(block)\n\(run.stderr)")
                    let lines = run.stdout.split(separator: "\n")
                    #expect(lines.count == urls.count, "one line per input: \(run.stdout)")
                    #expect(lines.allSatisfy { $0.hasPrefix("pass\t") }, "\(run.stdout)")
                }
            }
        }
    }

    /// The Debian packages of the shared libraries the built binary needs from the system: its own FFmpeg
    /// libraries, and those the Swift runtime it links in statically (`--static-swift-stdlib`) loads
    /// (FoundationXML's libxml2); the C and C++ runtime every image has are left out.
    static func runtimePackages() throws -> Set<String> {
        func needed(_ file: String) throws -> [String] {
            let run = try BufprobeProcess.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", file], timeout: 30)
            return run.stdout.split(separator: "\n").compactMap { line in
                guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }
        let toolchain = try #require(try Self.toolchainLibraries(), "the toolchain's runtime folder")
        var libraries = try needed(BufprobeProcess.executable.path)
        libraries += try needed(toolchain.appendingPathComponent("libFoundationXML.so").path)
        let system = libraries.filter { !FileManager.default.fileExists(atPath: toolchain.appendingPathComponent($0).path) }
            .filter { !["libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2"].contains($0) }
        var packages: Set<String> = []
        for library in Set(system) {
            let run = try BufprobeProcess.run(URL(fileURLWithPath: "/usr/bin/dpkg"), ["-S", "*/\(library)"], timeout: 30)
            let package = try #require(run.stdout.split(separator: ":").first, "dpkg -S \(library): \(run.stderr)")
            packages.insert(String(package))
        }
        return packages
    }

    /// The folder of the toolchain's Swift runtime libraries, the one the debug binary loads them from.
    static func toolchainLibraries() throws -> URL? {
        let run = try BufprobeProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [BufprobeProcess.executable.path], timeout: 30)
        let line = run.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so =>") }
        guard let path = line?.split(separator: " ").first(where: { $0.hasPrefix("/") }) else { return nil }
        return URL(fileURLWithPath: String(path)).deletingLastPathComponent()
    }

    /// The packages an `apt-get install` line names, options left out.
    static func installed(_ script: String) -> Set<String> {
        guard let range = script.range(of: "apt-get install") else { return [] }
        return Set(script[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter { !$0.hasPrefix("-") })
    }

    @Test("the hosted runners' steps: apt installs the packages of the libraries the built binary links, in the OS image it was built on; the build has the README's flags")
    func hostedStepsMatchTheBinary() throws {
        let packages = try Self.runtimePackages()
        #expect(packages.contains { $0.hasPrefix("libavformat") }, "\(packages)")
        let release = try String(contentsOfFile: "/etc/os-release", encoding: .utf8)
        let version = try #require(release.split(separator: "\n").first { $0.hasPrefix("VERSION_ID=") }).dropFirst(11).filter { $0 != "\"" }
        let image = "debian:\(version)"

        let (githubJob, steps) = try Self.githubSteps()
        let gitlab = try Self.gitlabJob()
        #expect(githubJob["container"] as? String == image, "the GitHub job runs where the binary was built")
        #expect(gitlab["image"] as? String == image, "the GitLab job runs where the binary was built")
        let installs = [
            ("GitHub", steps.compactMap { $0["run"] as? String }.filter { $0.contains("apt-get") }),
            ("GitLab", (gitlab["before_script"] as? [String] ?? []).filter { $0.contains("apt-get") }),
        ]
        for (name, lines) in installs {
            #expect(lines.count == 1, "\(name): one apt-get line")
            let named = Set(lines.flatMap { Self.installed($0) })
            #expect(packages.isSubset(of: named), "\(name) installs \(named.sorted()), the binary needs \(packages.sorted())")
            let libraries = named.filter { $0.hasPrefix("lib") }
            #expect(libraries == packages, "\(name): no library package the binary does not load: \(libraries.sorted())")
        }

        // The build: the README's release line, flags and all.
        let readme = try String(contentsOf: BufprobeProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let readmeBuild = try #require(readme.split(separator: "\n").first { $0.hasPrefix("swift build -c release") })
        let flags = readmeBuild.split(separator: "&&")[0].split(separator: " ").filter { $0.hasPrefix("-") }
        #expect(flags.contains("--static-swift-stdlib"), "\(readmeBuild)")
        let builds = Self.shellBlocks.checked.filter { $0.contains("swift build") }
        #expect(builds.count == 1, "docs/ci.md shows how the binary is built")
        for build in builds {
            let given = build.split(separator: "&&")[0].split(separator: " ").filter { $0.hasPrefix("-") }
            #expect(given == flags, "docs/ci.md builds with \(given), the README with \(flags)")
            #expect(build.contains("tools/bufprobe"), "the build puts the binary where the jobs run it")
        }
        #expect(Self.markdown.contains("Debian \(version)"), "docs/ci.md names the OS the binary is built on")
    }
}
