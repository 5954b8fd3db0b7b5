import TestSupport
import Testing
import ValidateEngine

/// The catalogue is data every output and the docs rely on: ids unique and carrying their source, every
/// rule with a fixture the tests make.
@Suite struct ValidationCatalogueTests {
    @Test func everyRuleIdIsUniqueAndNamesItsSource() {
        let ids = ValidationCatalogue.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parts = id.split(separator: ":")
            #expect(parts.count == 2 && ["apple", "rfc8216", "iso23009-1", "dvb-dash", "bufprobe"].contains(String(parts[0])), "\(id)")
        }
    }

    @Test func everyRuleHasAFixtureTheTestsMake() {
        for rule in ValidationCatalogue.rules {
            #expect(ValidateFixtures.names.contains(rule.fixture), "\(rule.id) names \(rule.fixture)")
        }
        for name in ValidateFixtures.names {
            #expect(ValidationCatalogue.rules.contains { $0.fixture == name }, "\(name) fires no rule of the catalogue")
        }
    }

    @Test func everyRuleSaysItsStatementToleranceAndEdition() {
        for rule in ValidationCatalogue.rules {
            #expect(!rule.statement.isEmpty && !rule.tolerance.isEmpty && !rule.edition.isEmpty)
        }
    }
}
