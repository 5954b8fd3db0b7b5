/// A count per problem kind, every kind present (0 when none seen): the `counts` of the live reports
/// (`low_latency`, `playlist_health`, `dash_live`). The JSON object has each kind's stable name (its raw
/// value) as a key, so a script sees every documented key in every document.
package struct ProblemCounts<Kind>: Sendable, Hashable
where Kind: RawRepresentable & CaseIterable & Hashable & Sendable, Kind.RawValue == String {
    // Only the kinds seen, so that equal counts are equal values whether a 0 was stored or never was.
    private var counts: [Kind: Int] = [:]

    /// No problems.
    package init() {}

    /// The count of `kind` (for a metric per kind: iterate `Kind.allCases`).
    package subscript(kind: Kind) -> Int {
        get { counts[kind, default: 0] }
        set { counts[kind] = newValue == 0 ? nil : newValue }
    }

    /// Adds `count` to `kind`'s count, saturating.
    package mutating func add(_ count: Int, to kind: Kind) {
        let (sum, overflow) = self[kind].addingReportingOverflow(count)
        self[kind] = overflow ? .max : sum
    }

    /// Every kind's count, in `Kind.allCases` order.
    package var all: [(kind: Kind, count: Int)] { Kind.allCases.map { ($0, self[$0]) } }
}

extension ProblemCounts: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads every kind's key, as written or as a snake_case-converting decoder hands it over
    /// (`segmentUriChanged`); a missing one (an older document) is 0.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for kind in Kind.allCases {
            let words = kind.rawValue.split(separator: "_")
            let camel = (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            self[kind] = try container.decodeIfPresent(Int.self, forKey: Key(stringValue: kind.rawValue))
                ?? container.decodeIfPresent(Int.self, forKey: Key(stringValue: camel)) ?? 0
        }
    }

    /// Writes every kind's count under its stable name.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for kind in Kind.allCases { try container.encode(self[kind], forKey: Key(stringValue: kind.rawValue)) }
    }
}
