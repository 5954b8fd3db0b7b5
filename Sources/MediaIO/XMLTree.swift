import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a small tree of elements (names without their namespace prefix, attributes, text),
/// read by Foundation's `XMLParser`: enough for a DASH manifest. External entities are never resolved, and
/// the tree is bounded in elements and depth, so a hostile document costs at most that much memory.
package struct XMLTree: Sendable, Hashable {
    /// One element.
    package struct Element: Sendable, Hashable {
        /// The local name (`SegmentTemplate` for `mpd:SegmentTemplate`).
        package var name: String
        /// Attributes by local name.
        package var attributes: [String: String]
        /// Child elements in document order.
        package var children: [Element]
        /// The element's own text, whitespace trimmed (a `BaseURL`'s URL).
        package var text: String

        /// The children named `name`.
        package func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

        /// The first child named `name`.
        package func child(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    /// Why a document could not be read.
    enum Problem: Error, Sendable, Hashable {
        /// Not well-formed XML: the parser's message and line.
        case malformed(String, line: Int)
        /// More elements or nesting than any manifest needs.
        case tooLarge
    }

    /// The root element.
    package var root: Element

    /// The most elements a document may hold.
    static let maximumElements = 2_000_000
    /// The deepest nesting a document may have.
    static let maximumDepth = 64

    /// Parses `data` as XML.
    static func parse(_ data: Data) throws(Problem) -> XMLTree {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let finished = parser.parse()
        if builder.overflow { throw .tooLarge }
        guard finished, let root = builder.root else {
            // Foundation on Linux describes libxml2's errors only by number.
            let message = parser.parserError.map { "parser error \(($0 as NSError).code)" } ?? "not an XML document"
            throw .malformed(message, line: parser.lineNumber)
        }
        return XMLTree(root: root)
    }

    /// Collects elements as the parser reports them.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        var count = 0
        var overflow = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            count += 1
            guard count <= XMLTree.maximumElements, stack.count < XMLTree.maximumDepth else {
                overflow = true
                parser.abortParsing()
                return
            }
            var local: [String: String] = [:]
            for (key, value) in attributes { local[Self.localName(key)] = value }
            stack.append(Element(name: Self.localName(elementName), attributes: local, children: [], text: ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty, stack[stack.count - 1].text.utf8.count < 65_536 else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard var element = stack.popLast() else { return }
            element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        /// `mpd:Period` -> `Period`.
        static func localName(_ name: String) -> String {
            guard let colon = name.lastIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }
    }
}
