/// A measured bandwidth trace: consecutive steps of constant bandwidth, as the research simulators replay
/// them (Pensieve's two-column `seconds Mbit/s` files, the FCC and HSDPA datasets in that form, Sabre's JSON
/// `{duration_ms, bandwidth_kbps, latency_ms}` list). A `NetworkModel` loops it when the session outlasts it.
public struct NetworkTrace: Sendable, Hashable {
    /// One stretch of constant bandwidth.
    public struct Step: Sendable, Hashable {
        /// How long the step lasts, in seconds (greater than 0).
        public var duration: Double
        /// The bandwidth during the step, in bits per second (0 is an outage).
        public var bitsPerSecond: Double
        /// The round-trip latency of a request started during the step, in seconds; `nil` uses the network's.
        public var latency: Double?

        /// Creates a step.
        public init(duration: Double, bitsPerSecond: Double, latency: Double? = nil) {
            self.duration = duration
            self.bitsPerSecond = bitsPerSecond
            self.latency = latency
        }
    }

    /// The steps in order; never empty, every duration positive.
    public let steps: [Step]
    /// Start time of each step within one period: `starts[0] == 0`.
    let starts: [Double]
    /// The length of one pass through the trace, in seconds.
    public let period: Double

    /// Whether some step carries its own request latency (Sabre's `latency_ms`).
    public var carriesLatency: Bool { steps.contains { $0.latency != nil } }

    /// Whether no step lets any data through: looped, such a trace never delivers a byte.
    public var isSilent: Bool { steps.allSatisfy { $0.bitsPerSecond <= 0 } }

    /// Creates a trace from steps; throws when there are none, or one has a non-positive duration or a
    /// negative or non-finite bandwidth or latency, a bandwidth above `BitRate.maximum`, or a latency or
    /// total length above `Seconds.maximum`.
    public init(steps: [Step]) throws(NetworkTraceError) {
        guard !steps.isEmpty else { throw NetworkTraceError(line: nil, reason: "the trace has no steps") }
        var starts: [Double] = []
        starts.reserveCapacity(steps.count)
        var total = 0.0
        for (index, step) in steps.enumerated() {
            guard step.duration > 0, step.duration.isFinite else {
                throw NetworkTraceError(line: index + 1, reason: "step \(index + 1) has a duration that is not positive")
            }
            guard step.bitsPerSecond >= 0, step.bitsPerSecond.isFinite else {
                throw NetworkTraceError(line: index + 1, reason: "step \(index + 1) has a negative or infinite bandwidth")
            }
            if let latency = step.latency, !(latency >= 0 && latency.isFinite) {
                throw NetworkTraceError(line: index + 1, reason: "step \(index + 1) has a negative or infinite latency")
            }
            // The same bounds as every duration and rate on the command line (`Seconds`, `BitRate`).
            guard step.bitsPerSecond <= BitRate.maximum else {
                throw NetworkTraceError(line: index + 1, reason: "step \(index + 1) has a bandwidth above 1 Tbit/s")
            }
            guard (step.latency ?? 0) <= Seconds.maximum, total + step.duration <= Seconds.maximum else {
                throw NetworkTraceError(
                    line: index + 1, reason: "step \(index + 1) reaches past 7 days, the longest trace or latency accepted")
            }
            starts.append(total)
            total += step.duration
        }
        self.steps = steps
        self.starts = starts
        self.period = total
    }

    /// Parses the two-column text format: one `time bandwidth` pair per line, time in seconds since the
    /// trace began (rows in increasing time) and bandwidth in Mbit/s, separated by spaces, tabs or a comma.
    /// Each row's bandwidth holds until the next row's time; the last row lasts as long as the row before it
    /// (1 s when there is only one). A third column, when present, is the latency in milliseconds of a
    /// request begun during the row (the step's `latency`); two-column files carry none. Blank lines and
    /// lines starting with `#` are skipped.
    public static func parseColumns(_ text: String) throws(NetworkTraceError) -> NetworkTrace {
        var rows: [(line: Int, time: Double, mbps: Double, latency: Double?)] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.split { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" }
            guard let first = line.first, !first.hasPrefix("#") else { continue }
            guard line.count >= 2, let time = Double(line[0]), let mbps = Double(line[1]), time.isFinite,
                mbps.isFinite
            else {
                throw NetworkTraceError(
                    line: lineNumber, reason: "line \(lineNumber) is not two numbers 'seconds Mbit/s'")
            }
            guard mbps >= 0 else {
                throw NetworkTraceError(line: lineNumber, reason: "line \(lineNumber) has a negative bandwidth")
            }
            // An optional third column, the latency in milliseconds of a request begun during the row
            // (what `check --record-trace` writes once it measured one).
            var latency: Double?
            if line.count >= 3 {
                guard let milliseconds = Double(line[2]), milliseconds.isFinite, milliseconds >= 0 else {
                    throw NetworkTraceError(
                        line: lineNumber, reason: "line \(lineNumber)'s third column is not a latency in milliseconds")
                }
                latency = milliseconds / 1000
            }
            if let previous = rows.last, time <= previous.time {
                throw NetworkTraceError(
                    line: lineNumber, reason: "line \(lineNumber) does not come later than the line before it")
            }
            rows.append((lineNumber, time, mbps, latency))
        }
        guard !rows.isEmpty else { throw NetworkTraceError(line: nil, reason: "the trace has no rows") }
        var steps: [Step] = []
        steps.reserveCapacity(rows.count)
        for index in rows.indices {
            let duration =
                index + 1 < rows.count
                ? rows[index + 1].time - rows[index].time
                : (index > 0 ? rows[index].time - rows[index - 1].time : 1)
            steps.append(Step(duration: duration, bitsPerSecond: rows[index].mbps * 1e6, latency: rows[index].latency))
        }
        return try NetworkTrace(steps: steps)
    }

    /// The index of the step covering `offset` seconds into one period (`0 <= offset < period`).
    func stepIndex(atOffset offset: Double) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
