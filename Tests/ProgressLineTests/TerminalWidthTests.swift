import Testing
import ProgressLine

@Suite("Terminal column widths")
struct TerminalWidthTests {
    @Test("columns count wide glyphs as 2, combining marks and escape codes as 0", arguments: [
        ("abc", 3), ("東京", 4), ("ｱ", 1), ("Ａ", 2), ("한국어", 6), ("e\u{301}", 1), ("\u{1B}[0;31mred\u{1B}[0m", 3),
        ("█▏●", 3), ("🎬", 2), ("a\u{200B}b", 2), ("", 0), ("\u{1F468}\u{200D}\u{1F469}", 4), ("…", 1),
    ])
    func columns(text: String, expected: Int) {
        #expect(TerminalWidth.columns(of: text) == expected)
    }

    @Test("fit pads short text and cuts long text with the ellipsis inside the width")
    func fit() {
        #expect(TerminalWidth.fit("abc", width: 5) == "abc  ")
        #expect(TerminalWidth.fit("abcdef", width: 4, ellipsis: "…") == "abc…")
        #expect(TerminalWidth.fit("abcdef", width: 4) == "abcd")
        #expect(TerminalWidth.fit("abc", width: 0) == "")
    }

    @Test("a wide character that would straddle the edge becomes padding")
    func wideAtEdge() {
        #expect(TerminalWidth.fit("東京の", width: 4, ellipsis: "…") == "東… ")
        #expect(TerminalWidth.fit("東京の", width: 3) == "東 ")
        #expect(TerminalWidth.columns(of: TerminalWidth.fit("東京の夜景", width: 7, ellipsis: "…")) == 7)
    }

    @Test("sanitized writes every C0, C1 and DEL character as a visible escape")
    func sanitized() {
        #expect(TerminalWidth.sanitized("a\u{1B}b\u{7}c\u{9B}d\te\u{7F}\nf") == #"a\x1bb\x07c\u{9b}d\x09e\x7f\x0af"#)
        #expect(TerminalText.escaped("one\ntwo\u{1B}", keepingNewlines: true) == "one\ntwo\\x1b")
    }

    @Test("a URL title is cut in the middle: the host and the last path component stay", arguments: [
        ("http://127.0.0.1:18080/live/stream/index.m3u8", 30, "127.0.0.1:18080…eam/index.m3u8"),
        ("http://127.0.0.1:18080/live/stream/index.m3u8", 27, "127.0.0.1:18080…/index.m3u8"),
        ("http://127.0.0.1:18080/live/stream/index.m3u8", 16, "127.0…index.m3u8"),
        ("https://cdn.example.com/a/b/c/very-long-segment-name.ts", 20, "cdn.ex…gment-name.ts"),
        ("/home/user/media/clip.mp4", 14, "…edia/clip.mp4"),
        ("http://h/x.ts", 13, "http://h/x.ts"),
        ("Big Buck Bunny 1080p", 10, "Big Buck …"),
    ])
    func titleMiddleCut(title: String, width: Int, expected: String) {
        let fitted = TerminalWidth.fitTitle(title, width: width, ellipsis: "…")
        #expect(fitted == expected)
        #expect(TerminalWidth.columns(of: fitted) == width)
    }
}
