/// A `PlayerAbrModel` as a value of `AbrRule.player`: equal when the models have the same name and
/// parameters.
public struct PlayerAbr: Sendable, Hashable {
    /// The model, in its initial state.
    public var model: any PlayerAbrModel

    /// Wraps `model`.
    public init(_ model: any PlayerAbrModel) {
        self.model = model
    }

    /// The model's name.
    public var name: String { model.name }

    /// The model with the user's `--abr-safety` in place of its own safety factors.
    public func overriding(safetyFactor: Double?) -> PlayerAbr {
        PlayerAbr(model.overriding(safetyFactor: safetyFactor))
    }

    /// Same name and parameters.
    public static func == (lhs: PlayerAbr, rhs: PlayerAbr) -> Bool {
        lhs.model.name == rhs.model.name && lhs.model.parameters == rhs.model.parameters
    }

    /// Hashes the name and parameters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(model.name)
        hasher.combine(model.parameters)
    }
}
