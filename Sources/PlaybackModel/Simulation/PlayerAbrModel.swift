/// A real player's own adaptive-bit-rate logic: its first choice, its estimator, its switch rule and,
/// optionally, its abandonment rule, as `--player` names it on `simulate`.
///
/// A model is a value: `AbrController` keeps one copy per session and calls it before each segment
/// request (`choose`), after each segment that arrived whole (`recordDownload`) and, when
/// `abandonCheckInterval` is set, every that many seconds of a download in flight above the lowest variant
/// (`abandonment`). It sees only what a player sees (the ladder's declared bit rates, the buffer ahead, its
/// own downloads), so the same calls give the same decisions.
///
/// A player's model lives in its folder, `Sources/PlaybackModel/Players/<Player>/` (one file, citing the
/// player's source file and line for each value), and its `PlayerProfile` returns it as `abr`.
public protocol PlayerAbrModel: Sendable {
    /// The name reports give the rule (`abr.rule` in the JSON), e.g. `hlsjs`.
    var name: String { get }
    /// The model's parameters by name (snake_case), for the report.
    var parameters: [String: Double] { get }
    /// Whether the abandonment rule judges the session's first request too (dash.js does: it starts above
    /// the lowest variant); by default the first request, sent with nothing buffered, is never checked.
    var judgesFirstRequest: Bool { get }
    /// Seconds between two looks at a segment in flight above the lowest variant (the first one that long
    /// after its first byte); `nil`: the player never abandons a download.
    var abandonCheckInterval: Double? { get }
    /// A fast switch (dash.js): after an up-switch, with at least this many segment durations buffered
    /// ahead, the next request goes back to the buffered segment holding the playhead plus that much, when
    /// its copy is of a lower variant, and replaces it and the ones after it at the new variant; `nil` (the
    /// default): a new variant starts after the buffered segments.
    var fastSwitchLevel: Double? { get }
    /// Whether the model reads a download's arrival curve (`PlayerAbrDownload.arrival`): a player that
    /// samples its throughput while the bytes come (Shaka's progress events) sees the rate change within a
    /// segment; by default the downloads carry none and the bytes count as spread evenly.
    var needsArrival: Bool { get }

    /// The variant (ascending index) of the next segment request, with the reason in words.
    mutating func choose(_ context: PlayerAbrContext) -> AbrDecision
    /// A segment download that ended: whole, or dropped by `abandonment` (then `download.bytes` is what
    /// came before it was dropped).
    mutating func recordDownload(_ download: PlayerAbrDownload)
    /// Whether to drop the segment in flight and request it again at a lower variant: the new variant
    /// (ascending index, below `progress.variant`) and the reason, or `nil` to let it go on.
    mutating func abandonment(_ progress: PlayerAbrProgress) -> AbrDecision?
    /// The model with the user's `--abr-safety` (a fraction of the estimate a variant may use) in place of
    /// the player's own safety factors; `nil` keeps them.
    func overriding(safetyFactor: Double?) -> Self
}

extension PlayerAbrModel {
    /// The first request is not judged unless the model says so.
    public var judgesFirstRequest: Bool { false }

    /// No abandonment unless the model has a rule for it.
    public var abandonCheckInterval: Double? { nil }

    /// No replacement of buffered segments unless the model says so.
    public var fastSwitchLevel: Double? { nil }

    /// No arrival curve unless the model reads one.
    public var needsArrival: Bool { false }

    /// No abandonment unless the model has a rule for it.
    public mutating func abandonment(_ progress: PlayerAbrProgress) -> AbrDecision? { nil }
}
