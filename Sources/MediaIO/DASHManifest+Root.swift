import Foundation

/// The one place a DASH manifest's XML is parsed and its root checked: the static reader
/// (`DASHManifest.parse`), the live one (`DASHLiveManifest.parse`) and the request-policy check
/// (`DASHRequestCheck`) all start here.
extension DASHManifest {
    /// What a manifest's bytes are as an MPD: the one place its XML is parsed and its root checked.
    /// `notAnMPD` holds the root's name when the XML is well formed and bounded but its root is not `MPD`.
    package enum Root {
        /// The `MPD` root element.
        case mpd(XMLTree.Element)
        /// Well-formed XML whose root is this other element.
        case notAnMPD(String)

        /// The `MPD` element; throws when the root is another element.
        package func mpd() throws(DASHManifestError) -> XMLTree.Element {
            switch self {
            case .mpd(let element): return element
            case .notAnMPD(let name): throw DASHManifestError(reason: "is XML but not an MPD (its root is <\(name)>)")
            }
        }
    }

    /// The manifest's root, parsed once; throws for XML that is malformed or over `XMLTree`'s bounds.
    package static func root(_ bytes: [UInt8]) throws(DASHManifestError) -> Root {
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(Data(bytes))
        } catch {
            switch error {
            case .malformed(let message, let line):
                throw DASHManifestError(reason: "is not well-formed XML (line \(line), \(message))")
            case .tooLarge:
                throw DASHManifestError(
                    reason: "has more than \(XMLTree.maximumElements) elements or is nested deeper than \(XMLTree.maximumDepth)")
            }
        }
        return tree.root.name == "MPD" ? .mpd(tree.root) : .notAnMPD(tree.root.name)
    }

    /// The `MPD` element of a manifest's bytes; throws for XML that is malformed, too large, or not an MPD.
    static func mpd(_ bytes: [UInt8]) throws(DASHManifestError) -> XMLTree.Element {
        try root(bytes).mpd()
    }
}
