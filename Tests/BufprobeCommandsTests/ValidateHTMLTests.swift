import Foundation
import Testing
import TestSupport

/// `validate --html FILE`: the page is written beside the text report, is self-contained (no script, no
/// request), escapes what the stream says, and a browser shows it: headless Chromium renders the findings
/// (its DOM holds them) and paints them (a screenshot of the page is far from a blank page's).
@Suite("validate --html", .serialized)
struct ValidateHTMLTests {
    @Test func pageNamesTheFindingsTheMeasuredTableAndEveryRuleChecked() throws {
        let master = try ValidateFixtures.make("bandwidthWrong")
        let folder = master.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        let result = try BufprobeProcess.run(["validate", "--html", page.path, master.path], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("MUST FIX (1)"), "the text report is still written: \(result.stdout)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("MUST FIX (1)"))
        #expect(html.contains("<code>apple:1.27</code>"))
        #expect(html.contains("Measured"))
        #expect(html.contains("Rules checked ("))
        // Self-contained: nothing to fetch, nothing to run.
        for outside in ["<script", "src=", "href=", "@import", "url("] { #expect(!html.contains(outside), "\(outside)") }
    }

    @Test func dashPageShowsTheRepresentationTable() throws {
        let mpd = try ValidateFixtures.make("dashBandwidthTooLow")
        defer { try? FileManager.default.removeItem(at: mpd.deletingLastPathComponent()) }
        let page = mpd.deletingLastPathComponent().appendingPathComponent("report.html")
        let result = try BufprobeProcess.run(["validate", "--html", page.path, mpd.path], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for column in ["<th>ID</th>", "<th>NEEDED</th>", "<th>FRAMERATE</th>"] { #expect(html.contains(column), "\(column)") }
        #expect(html.contains("<code>iso23009-1:5.3.5.2@bandwidth</code>"))
    }

    @Test func streamWordsAreEscaped() throws {
        let folder = try ValidateFixtures.clean(.ts)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A variant URI with markup in it: the playlist is what a hostile origin controls.
        let master = folder.appendingPathComponent("master.m3u8")
        let text = try String(contentsOf: master, encoding: .utf8)
        let hostile = folder.appendingPathComponent("<u>x<u>.m3u8")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("v1/index.m3u8"), to: hostile)
        try text.replacingOccurrences(of: "v1/index.m3u8", with: "<u>x<u>.m3u8").write(to: master, atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("report.html")
        _ = try BufprobeProcess.run(["validate", "--html", page.path, master.path], timeout: 60)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<u>x<u>"))
        #expect(html.contains("&lt;u&gt;x&lt;u&gt;.m3u8"))
    }

    @Test func unwritablePageIsOneSentenceAndExitTwo() throws {
        let result = try BufprobeProcess.run(
            ["validate", "--html", "/nonexistent/folder/report.html", BufprobeProcess.sample("hls/master.m3u8")], timeout: 60)
        #expect(result.status == 2)
        #expect(result.stderr.contains("the HTML page could not be written to /nonexistent/folder/report.html"), "\(result.stderr)")
    }

    @Test(.enabled(if: Self.chromium != nil, "chromium is not installed (.ci/run installs it: apt-get install chromium)"))
    func chromiumRendersAndPaintsThePage() throws {
        let chromium = try #require(Self.chromium)
        let master = try ValidateFixtures.make("bandwidthWrong")
        let folder = master.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        _ = try BufprobeProcess.run(["validate", "--html", page.path, master.path], timeout: 60)
        let blank = folder.appendingPathComponent("blank.html")
        try "<!DOCTYPE html><html><body></body></html>".write(to: blank, atomically: true, encoding: .utf8)
        let flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1000"]
        let chromiumURL = URL(fileURLWithPath: chromium)
        try TestCache.exclusively("chromium") {
            let dom = try BufprobeProcess.run(chromiumURL, flags + ["--dump-dom", page.absoluteString], timeout: 90)
            #expect(dom.stdout.contains("MUST FIX (1)"), "\(dom.stderr.suffix(400))")
            #expect(dom.stdout.contains("apple:1.27"))
            var sizes: [Int] = []
            for (file, shot) in [(page, "page.png"), (blank, "blank.png")] {
                let png = folder.appendingPathComponent(shot)
                _ = try BufprobeProcess.run(chromiumURL, flags + ["--screenshot=\(png.path)", file.absoluteString], timeout: 90)
                let data = try Data(contentsOf: png)
                #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(shot) is a PNG")
                // The IHDR's width, big-endian at byte 16: the window's.
                #expect(data.count > 24 && data[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1280)
                sizes.append(data.count)
            }
            // A white page compresses to almost nothing; text, tables and the verdict's colour do not.
            #expect(sizes[0] > 10 * sizes[1], "page \(sizes[0]) bytes, blank \(sizes[1])")
        }
    }

    static let chromium: String? = ["/usr/bin/chromium", "/usr/local/bin/chromium"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
