// The one module a Swift program imports: bufprobe's whole public API, from the engines that implement it.
// ProbeEngine (MediaProbe), SimulateEngine (NetworkSimulation), CheckEngine (StreamCheck) and PlaybackModel
// (the policy, the player, the QoE report) are re-exported whole.
@_exported public import CheckEngine
@_exported public import PlaybackModel
@_exported public import ProbeEngine
@_exported public import SimulateEngine
// `StreamCheck` takes a `Logger` for FFmpeg's log lines: the type comes with the import.
@_exported public import struct Logging.Logger
// `validate`'s engine: the rule catalogue, `StreamValidation` and its report.
@_exported public import ValidateEngine
