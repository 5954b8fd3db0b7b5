public import MediaIO

/// What the driver read of one DASH MPD (static, single period): its XML (the structure rules judge it),
/// the manifest the static parser made of it (`DASHManifest`, or why it could not), and every
/// representation with its segments as far as they were read.
public struct DASHRead: Sendable, Hashable {
    /// One representation and what was read of it.
    public struct Representation: Sendable, Hashable {
        /// As the MPD declares it (attributes inherited from its adaptation set).
        public var declared: DASHManifest.Representation
        /// The index of its adaptation set in `manifest.adaptationSets`.
        public var set: Int
        /// Its position among every representation of the MPD, from 1 (as reports name it).
        public var number: Int
        /// Its segments that were read (or failed), in MPD order; segments past a bound are absent.
        public var segments: [SegmentRead] = []
        /// How many media segments the MPD lists for it (0 for a `SegmentBase` one: its index is not read).
        public var segmentsListed: Int

        /// A representation read.
        public init(declared: DASHManifest.Representation, set: Int, number: Int, segmentsListed: Int) {
            self.declared = declared
            self.set = set
            self.number = number
            self.segmentsListed = segmentsListed
        }

        /// Whether every segment it lists was read, with no failure.
        public var isComplete: Bool {
            segmentsListed > 0 && segments.count == segmentsListed && segments.allSatisfy { $0.error == nil && $0.bytes != nil }
        }

        /// "representation 2 (id 1)".
        public var name: String { "representation \(number) (id \(declared.id))" }
    }

    /// Where the MPD was read from.
    public var uri: String
    /// The MPD element as read (the structure rules judge it).
    package var mpd: XMLTree.Element
    /// What the static parser made of it; `nil` when its segments could not be worked out (`manifestError`).
    public var manifest: DASHManifest?
    /// Why the segments could not be worked out (a clause completing "the MPD ..."), or `nil`.
    public var manifestError: String?
    /// Every representation, in MPD order.
    public var representations: [Representation] = []

    /// An MPD read.
    package init(uri: String, mpd: XMLTree.Element, manifest: DASHManifest?, manifestError: String? = nil) {
        self.uri = uri
        self.mpd = mpd
        self.manifest = manifest
        self.manifestError = manifestError
    }

    /// Whether the MPD is live (`type="dynamic"`): then only its XML is judged.
    public var isDynamic: Bool { mpd.attributes["type"] == "dynamic" }

    /// `MPD@minBufferTime`, seconds, when it is given and readable.
    public var minBufferTime: Double? { manifest?.minBufferTime }
}
