/// One rule broken, as a value: which rule, how strongly, a sentence with the measured and declared figures,
/// where (the playlist and, for a segment rule, the segments' URIs), and how often.
public struct Finding: Sendable, Hashable, Codable {
    /// The rule's id (`apple:1.27`).
    public var rule: String
    /// The rule's level.
    public var level: ValidationRule.Level
    /// What was found, with its figures: "measured peak 1.84 Mbit/s, BANDWIDTH 1.10 Mbit/s, +67 %".
    public var message: String
    /// The playlist it was found in, then the segments it concerns (the first few).
    public var `where`: [String]
    /// How many of `total` items broke the rule (segments, variants), when it is counted.
    public var count: Int?
    /// How many items were judged, when counted ("in 6 of 7 segments").
    public var total: Int?
    /// The measured figure the rule compares, in its unit (bits per second, seconds), when it has one.
    public var measured: Double?
    /// The declared figure it is compared with, when it has one.
    public var declared: Double?

    /// A finding of `rule` (its level from the catalogue; `must` for an id it does not have).
    public init(
        rule: String, message: String, where: [String], count: Int? = nil, total: Int? = nil, measured: Double? = nil,
        declared: Double? = nil
    ) {
        self.rule = rule
        self.level = ValidationCatalogue.rule(rule)?.level ?? .must
        self.message = message
        self.where = `where`
        self.count = count
        self.total = total
        self.measured = measured
        self.declared = declared
    }

    /// The most segment URIs a finding names: the rest are counted, not listed.
    public static let listedPlaces = 5
}
