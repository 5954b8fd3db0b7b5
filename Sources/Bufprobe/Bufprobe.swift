// The one module a Swift program imports: bufprobe's whole public API, from the engines that implement it.
// ProbeEngine (MediaProbe), CheckEngine (StreamCheck) and PlaybackModel (the policy, the player, the QoE
// report) are re-exported whole; simulate's face still lives in the command module (its engine has not
// moved out yet), so it is named here instead of re-exporting the commands.
@_exported public import CheckEngine
@_exported public import PlaybackModel
@_exported public import ProbeEngine
// `StreamCheck` takes a `Logger` for FFmpeg's log lines: the type comes with the import.
@_exported public import struct Logging.Logger
public import BufprobeCommands

/// Playing media over a simulated network, in virtual time: what `bufprobe simulate MEDIA --bandwidth B
/// --latency L` does. See `NetworkSimulation.simulate(_:bandwidth:latency:policy:)`.
public typealias NetworkSimulation = BufprobeCommands.NetworkSimulation

/// The outcome of `NetworkSimulation.simulate`: startup delay, stalls and the whole `--json` document.
public typealias SimulationSummary = BufprobeCommands.SimulationSummary

/// Why `NetworkSimulation.simulate` could not run: bufprobe's sentence.
public typealias SimulationError = BufprobeCommands.SimulationError
