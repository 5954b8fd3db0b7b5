/// One rule of the validation catalogue (`ValidationCatalogue`), as data: where it comes from, how strongly
/// the source words it, what it says in our words, the tolerance bufprobe applies, and the test fixture
/// that makes it fire.
public struct ValidationRule: Sendable, Hashable, Codable {
    /// How strongly the source words the rule.
    public enum Level: String, Sendable, Hashable, Codable, Comparable {
        /// "MUST" (or "MUST NOT"): a finding is a must-fix, and `validate` exits 1.
        case must
        /// "SHOULD" (or "SHOULD NOT"): a finding is a should-fix.
        case should

        /// `must` sorts first.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs == .must && rhs == .should }
    }

    /// The source and its section: `apple:1.27`, `rfc8216:4.3.3.1`.
    public var id: String
    /// As the source words it.
    public var level: Level
    /// What the rule asks, in one line, in our own words.
    public var statement: String
    /// The tolerance bufprobe applies when it measures, in words (`none` for a rule that has none).
    public var tolerance: String
    /// The source's edition the section number is taken from.
    public var edition: String
    /// The name of the test fixture (`ValidateEngineTests`) on which the rule fires.
    public var fixture: String

    /// A rule of the catalogue.
    public init(id: String, level: Level, statement: String, tolerance: String, edition: String, fixture: String) {
        self.id = id
        self.level = level
        self.statement = statement
        self.tolerance = tolerance
        self.edition = edition
        self.fixture = fixture
    }
}
