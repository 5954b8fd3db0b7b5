/// Text safe in an XML 1.0 document (and HTML), content and attribute values alike: the SVG plots, the
/// JUnit report and serve's pages.
package enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, and the control characters XML 1.0 cannot carry
    /// at all (everything below U+0020 but tab, line feed and carriage return; a server's or a file's words
    /// may hold any) as U+FFFD, so that no input makes the document unreadable.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
