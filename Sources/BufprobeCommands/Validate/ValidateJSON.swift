import ValidateEngine

/// `validate --json`: one document per input, from `ValidationReport`, with a `schema_version`. Every
/// finding has all its keys (`count`, `total`, `measured`, `declared` are `null` when the rule has none).
struct ValidateJSON: Encodable {
    /// The document's schema: 1 is this wave's (HLS VOD).
    static let schemaVersion = 1

    /// One finding.
    struct Entry: Encodable {
        let finding: Finding

        enum CodingKeys: String, CodingKey {
            case rule, level, message, `where`, count, total, measured, declared
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(finding.rule, forKey: .rule)
            try container.encode(finding.level.rawValue, forKey: .level)
            try container.encode(finding.message, forKey: .message)
            try container.encode(finding.where, forKey: .where)
            try container.encode(finding.count, forKey: .count)
            try container.encode(finding.total, forKey: .total)
            try container.encode(finding.measured, forKey: .measured)
            try container.encode(finding.declared, forKey: .declared)
        }
    }

    let schemaVersion = ValidateJSON.schemaVersion
    let source: String
    /// `hls` or `dash` (`null` for an input that could not be read).
    let format: String?
    /// The sentence of an input that could not be read (then nothing else is filled in).
    let error: String?
    let mustFix: Int
    let shouldFix: Int
    let findings: [Entry]
    let rulesChecked: [String]
    let variants: [ValidationReport.VariantRow]
    let playlists: Int
    let segmentsRead: Int
    let bytesRead: Int64
    let notRead: [String]
    let seconds: Double

    /// The document of `report`.
    init(_ report: ValidationReport) {
        source = report.source
        format = report.format.rawValue
        error = nil
        mustFix = report.mustFix.count
        shouldFix = report.shouldFix.count
        findings = report.findings.map(Entry.init)
        rulesChecked = report.rulesChecked
        variants = report.variants
        playlists = report.playlists
        segmentsRead = report.segmentsRead
        bytesRead = report.bytesRead
        notRead = report.notRead
        seconds = (report.seconds * 1000).rounded() / 1000
    }

    /// The document of an input that could not be read.
    init(source: String, failure: ValidationFailure) {
        self.source = source
        format = nil
        error = failure.description
        mustFix = 0
        shouldFix = 0
        findings = []
        rulesChecked = []
        variants = []
        playlists = 0
        segmentsRead = 0
        bytesRead = 0
        notRead = []
        seconds = 0
    }
}
