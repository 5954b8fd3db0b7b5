import BufprobeCommands
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
import BufprobeOutput

/// Collects what the plot's SVG holds: elements per group class, and every text.
private final class SVGContents: NSObject, XMLParserDelegate {
    var root: String?
    var groups: [String] = []
    var countByGroup: [String: [String: Int]] = [:]
    var lineClasses: [String: [String: String]] = [:]
    var texts: [String] = []
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        if name == "g" { groups.append(attributes["class"] ?? "") }
        if let group = groups.last { countByGroup[group, default: [:]][name, default: 0] += 1 }
        if name == "line", let kind = attributes["class"] { lineClasses[kind] = attributes }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "g" { groups.removeLast() }
        if name == "text" || name == "title" { texts.append(text) }
    }
}

@Suite("bufprobe probe --plot")
struct ProbePlotTests {
    @Test("the plot is well-formed SVG with one bar per second, the keyframes and the bandwidth line it names")
    func plotShowsWhatItClaims() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("dense.svg").path
        let sample = BufprobeProcess.sample("dense-start.mp4")
        let result = try BufprobeProcess.run(["probe", "--json", "--plot", path, "--plot-startup-delay", "3", sample])
        #expect(result.status == 0, "\(result.stderr)")
        struct Document: Decodable {
            struct Need: Decodable {
                var startupDelay: Double
                var minBandwidthBps: Double?
            }
            var needs: [Need]
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let document = try decoder.decode(Document.self, from: Data(result.stdout.utf8))
        let need = try #require(document.needs.first { $0.startupDelay == 3 }?.minBandwidthBps)

        let contents = SVGContents()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        parser.delegate = contents
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        #expect(contents.root == "svg")
        // dense-start.mp4 is 20 s of media: 20 one-second bars, each with a tooltip.
        #expect(contents.countByGroup["bars"]?["rect"] == 20)
        // 500 frames with a keyframe every 50: 10 keyframes, two strokes each.
        #expect(contents.countByGroup["keyframes"]?["line"] == 20)
        #expect(contents.lineClasses["bandwidth"] != nil)
        #expect(contents.lineClasses["average"] != nil)
        let label = "needed to start in 3 s: " + TextFormat.bitRate(need)
        #expect(contents.texts.contains(label), "\(contents.texts)")
        for word in ["presentation time (s)", "kbit/s (bytes per second x 8)", "keyframe", "Bit rate per second of dense-start.mp4"] {
            #expect(contents.texts.contains(word), "missing \(word)")
        }
        // The bandwidth line lies inside the plot area (72 to 356 px from the top) and is horizontal.
        let y = try #require(Double(contents.lineClasses["bandwidth"]?["y1"] ?? ""))
        #expect(y > 72 && y < 420 - 64)
        #expect(contents.lineClasses["bandwidth"]?["y2"] == contents.lineClasses["bandwidth"]?["y1"])
    }

    @Test("--plot refuses what it cannot do: PNG, several inputs, an unwritable place")
    func plotErrors() throws {
        let sample = BufprobeProcess.sample("cbr.wav")
        #expect(try BufprobeProcess.run(["probe", "--plot", "x.png", sample]).status == 64)
        #expect(try BufprobeProcess.run(["probe", "--plot", "x.svg", sample, sample]).status == 64)
        let failed = try BufprobeProcess.run(["probe", "--plot", "/nonexistent-dir/x.svg", sample])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("error:") && failed.stderr.contains("/nonexistent-dir/x.svg"), "\(failed.stderr)")
    }
}
