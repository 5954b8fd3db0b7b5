@testable import PlaybackModel
import Testing

/// The players' reasons print whole numbers as `Int(_:)` would, and a value `Int(_:)` would trap on as the
/// `Double` itself.
@Suite("wholeNumber: a reason's whole number, never a trap")
struct WholeNumberTests {
    @Test("toward zero, as Int(_:) truncates")
    func truncates() {
        #expect(wholeNumber(4.9) == "4")
        #expect(wholeNumber(-4.9) == "-4")
        #expect(wholeNumber(2153.7) == "2153")
    }

    @Test("infinite, NaN and out-of-range values are written as the Double")
    func noTrap() {
        #expect(wholeNumber(.infinity) == "inf")
        #expect(wholeNumber(.nan) == "nan")
        #expect(wholeNumber(1e300) == "1e+300")
    }
}
