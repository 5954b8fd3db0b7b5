import Foundation

/// What `check --record-trace` measured: the bytes handed to the player over wall time since the check
/// began, and when the player had stopped loading (its forward-buffer target was reached), written as a
/// bandwidth trace `simulate --trace` replays.
///
/// The trace is the throughput in fixed bins: bin k's rate is the bytes that arrived in
/// `(k * bin, (k + 1) * bin]` divided by the bin. Bytes count when the packet carrying them arrived, not
/// spread back over the wait before it: a server that sends in bursts (nginx's `limit_rate` sends a
/// second's worth at once) gave the player nothing in between, and a replay must not either. A bin the
/// player spent mostly not loading says nothing about the link, so it takes the mean rate of the last
/// second it was loading.
///
/// Each request's latency (`addLatency`: for HTTP, the time from asking to open a resource to its response
/// head, as the resource gate times it) is kept too. A step's latency is the mean of the requests that
/// began in it, else the last one known (before the first request, the first one). The formats that carry
/// latency (Sabre's `latency_ms`, the bufprobe format's third column) are replayed by `simulate` charging
/// that latency to each request, during which the link carries nothing: so that the wait is not counted
/// twice, their bins are the bytes over the time not spent waiting for a response head (a fast link with
/// a long latency then shows its real rate, in short bursts); a bin with less than 10 ms not waiting
/// takes the mean of the last second loading (before any, the first rate measured after it), and its
/// bytes count in the next bin measured. Mahimahi's format has no latency, so its bins keep
/// the waits as time the link carried nothing, as they were measured.
package struct ThroughputRecording: Sendable {
    /// The formats `--trace-format` writes.
    package enum Format: String, CaseIterable, Sendable {
        /// Columns `seconds Mbit/s`, one row per bin (what `simulate --trace` reads, as Pensieve's), and a
        /// third, `latency_ms`, once a request's latency was measured.
        case bufprobe
        /// Sabre's JSON list of `{duration_ms, bandwidth_kbps, latency_ms}` (`latency_ms` once measured).
        case sabre
        /// Mahimahi: one line per 1500-byte packet delivery opportunity, its time in whole milliseconds.
        case mahimahi
    }

    /// The width of a bin, seconds: short, because a byte moves up to a bin earlier in the replay.
    package static let bin = 0.1
    /// Bins a bin spent not loading averages over (1 s).
    private static let idleWindow = 10
    /// A sample less than this after the one before the last replaces the last (the count stays exact,
    /// at most about one sample per 10 ms is kept).
    private static let resolution = 0.01
    /// Mahimahi's packet, bytes.
    package static let mahimahiPacket = 1500.0

    /// `(seconds since the check began, bytes received by then)`, times increasing, from `(0, 0)`.
    package private(set) var samples: [(time: Double, bytes: Double)] = [(0, 0)]
    /// Intervals during which the player did not want data.
    private(set) var idle: [(start: Double, end: Double)] = []
    private var idleSince: Double?
    /// `(seconds since the check began, seconds)` of each request's latency, in the order they were timed.
    package private(set) var latencies: [(start: Double, seconds: Double)] = []

    /// An empty recording.
    package init() {}

    /// `bytes` had been received `time` seconds after the check began.
    package mutating func add(time: Double, bytes: Int64) {
        let value = Double(bytes)
        guard let last = samples.last, time >= last.time else { return }
        if samples.count > 2, time - samples[samples.count - 2].time < Self.resolution {
            samples[samples.count - 1] = (time, max(value, last.bytes))
        } else {
            samples.append((time, max(value, last.bytes)))
        }
    }

    /// A request began `start` seconds after the check began and waited `seconds` for its response head.
    package mutating func addLatency(start: Double, seconds: Double) {
        guard start.isFinite, seconds.isFinite, start >= 0, seconds >= 0 else { return }
        latencies.append((start, seconds))
    }

    /// The player stopped (`false`) or resumed (`true`) asking for data at `time`.
    package mutating func loading(_ wantsData: Bool, at time: Double) {
        if wantsData, let since = idleSince {
            if time > since { idle.append((since, time)) }
            idleSince = nil
        } else if !wantsData, idleSince == nil {
            idleSince = time
        }
    }

    /// Bytes received by `time`: the last sample at or before it.
    private func bytes(at time: Double) -> Double {
        guard let last = samples.last else { return 0 }
        if time >= last.time { return last.bytes }
        var low = 0
        var high = samples.count - 1
        // samples[low].time <= time < samples[high].time
        while high - low > 1 {
            let middle = (low + high) / 2
            if samples[middle].time <= time { low = middle } else { high = middle }
        }
        return samples[low].bytes
    }

    /// Seconds of `[start, end)` the player spent not loading.
    private func idleTime(from start: Double, to end: Double) -> Double {
        var total = 0.0
        for interval in idle + (idleSince.map { [($0, Double.infinity)] } ?? []) {
            total += max(0, min(end, interval.end) - max(start, interval.start))
        }
        return total
    }

    /// Seconds of `[start, end)` spent waiting for a response head.
    private func waitingTime(from start: Double, to end: Double) -> Double {
        // Requests are timed one after the other on the reading thread: the waits do not overlap.
        latencies.reduce(0) { $0 + max(0, min(end, $1.start + $1.seconds) - max(start, $1.start)) }
    }

    /// The trace as `(duration s, bits per second)` steps up to the last byte received, with the bins'
    /// waits for response heads left in; empty when nothing was received.
    package var steps: [(duration: Double, bitsPerSecond: Double)] {
        steps(excludingLatency: false).map { ($0.duration, $0.bitsPerSecond) }
    }

    /// The trace as steps up to the last byte received, each with its latency (seconds, `nil` when no
    /// request was timed); empty when nothing was received. `excludingLatency`: each bin's rate is over the
    /// time not spent waiting for a response head, and a bin with less than `resolution` not waiting takes
    /// the mean of the last second loading (or, before any, the first rate measured after it), its bytes
    /// moved to the next bin measured.
    package func steps(excludingLatency: Bool) -> [(duration: Double, bitsPerSecond: Double, latency: Double?)] {
        guard let end = samples.last?.time, end > 0, (samples.last?.bytes ?? 0) > 0 else { return [] }
        let excluding = excludingLatency && !latencies.isEmpty
        var steps: [(duration: Double, bitsPerSecond: Double, latency: Double?)] = []
        // A bin waiting before any was measured: filled with the first measured after it.
        var unmeasured: [Int] = []
        var loading: [Double] = []
        // Bytes of waiting bins, counted in the next bin measured, and the time not waiting they came in.
        var carried = 0.0
        var carriedTime = 0.0
        var lastLatency = latencies.first?.seconds
        var index = 0.0
        while index * Self.bin < end {
            // Bin edges as multiples, not sums: no drift over hours of bins.
            let start = index * Self.bin
            let stop = min((index + 1) * Self.bin, end)
            let width = stop - start
            let waiting = excluding ? min(waitingTime(from: start, to: stop), width) : 0
            let began = latencies.filter { $0.start >= start && $0.start < stop }.map(\.seconds)
            if !began.isEmpty { lastLatency = began.reduce(0, +) / Double(began.count) }
            var rate = 0.0
            let byStop = bytes(at: stop)
            let received = byStop - bytes(at: start)
            // Before the first byte arrived the link was not yet asked for media (the check was starting,
            // FFmpeg opening): what it could carry then is unknown, not nothing, so such a bin is measured
            // like a wait, after it.
            let beforeFirstByte = excluding && byStop == 0
            let waitingBin = excluding && (beforeFirstByte || (waiting > width / 2 && width - waiting < Self.resolution))
            if waitingBin || (idleTime(from: start, to: stop) > width / 2 && !loading.isEmpty) {
                if waitingBin {
                    carried += received
                    carriedTime += max(0, width - waiting)
                }
                if loading.isEmpty {
                    unmeasured.append(steps.count)
                } else {
                    rate = loading.reduce(0, +) / Double(loading.count)
                }
            } else {
                rate = (received + carried) * 8 / (width - waiting)
                carried = 0
                carriedTime = 0
                loading.append(rate)
                if loading.count > Self.idleWindow { loading.removeFirst() }
                for earlier in unmeasured { steps[earlier].bitsPerSecond = rate }
                unmeasured = []
            }
            steps.append((width, rate, lastLatency))
            index += 1
        }
        // The trace ended in waits (every byte came in a bin that was mostly a wait, as on a fast link with a
        // long latency): no bin after them was measured, so the bytes they carried are their rate, over the
        // time they were not waiting, rather than lost.
        if carried > 0, !unmeasured.isEmpty {
            let rate = carried * 8 / max(carriedTime, Self.resolution)
            for earlier in unmeasured { steps[earlier].bitsPerSecond = rate }
        }
        return steps
    }

    /// The trace file's text in `format`, `source` named in a comment where the format has comments.
    package func render(_ format: Format, source: String) -> String {
        // Mahimahi cannot carry latency: its bins keep the waits (see the type's comment).
        let steps = self.steps(excludingLatency: format != .mahimahi)
        switch format {
        case .bufprobe:
            var text = "# bufprobe check --record-trace \(source.replacingOccurrences(of: "\n", with: " "))\n"
            if latencies.isEmpty {
                text += "# seconds Mbit/s, the throughput measured in \(Self.bin) s bins\n"
            } else {
                text += "# seconds Mbit/s latency_ms, the throughput measured in \(Self.bin) s bins (over the time not"
                text += " spent waiting for a response head) and the latency of the requests begun in each\n"
            }
            for (index, step) in steps.enumerated() {
                text += "\(Self.number(Double(index) * Self.bin)) \(Self.number(step.bitsPerSecond / 1e6))"
                if let latency = step.latency { text += " \(Self.number(latency * 1000))" }
                text += "\n"
            }
            return text
        case .sabre:
            let rows = steps.map { step in
                let latency = step.latency.map { ", \"latency_ms\": \(Self.number($0 * 1000))" } ?? ""
                return "  {\"duration_ms\": \(Self.number(step.duration * 1000)), \"bandwidth_kbps\": \(Self.number(step.bitsPerSecond / 1000))\(latency)}"
            }
            return "[\n" + rows.joined(separator: ",\n") + "\n]\n"
        case .mahimahi:
            // One delivery opportunity each time the bytes the link carried reach the next 1500.
            var text = ""
            var start = 0.0
            var carried = 0.0
            var sent = 0.0
            for step in steps {
                let bytes = step.bitsPerSecond / 8 * step.duration
                // A thousandth of a byte absorbs the rounding of rate x duration.
                while sent + Self.mahimahiPacket <= carried + bytes + 0.001 {
                    sent += Self.mahimahiPacket
                    let within = bytes > 0 ? (sent - carried) / bytes * step.duration : 0
                    // To the microsecond first: 12.000000000000002 ms is 12, not 13.
                    let milliseconds = (((start + within) * 1_000_000).rounded() / 1000).rounded(.up)
                    text += "\(Int(exactly: milliseconds) ?? 0)\n"
                }
                carried += bytes
                start += step.duration
            }
            return text
        }
    }

    /// A number with at most six decimals and no trailing zeros.
    private static func number(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(format: "%.0f", rounded) }
        var text = String(format: "%.6f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
