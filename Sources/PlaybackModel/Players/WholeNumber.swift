/// `value` as the whole number `Int(_:)` would give (toward zero), for the players' decision reasons and
/// model descriptions, without `Int(_:)`'s trap: a value an `Int` cannot hold (infinite, NaN, beyond
/// `Int`'s range: an estimate from a degenerate sample, a public constant a library user set) is written as
/// the `Double` itself.
package func wholeNumber(_ value: Double) -> String {
    Int(exactly: value.rounded(.towardZero)).map(String.init) ?? "\(value)"
}
