import PlaybackModel
import Testing

@Suite("Simulation network")
struct SimulationNetworkTests {
    @Test("a constant network delivers N bytes in exactly 8N / bandwidth seconds")
    func constant() {
        let network = NetworkModel(bitsPerSecond: 2_000_000, latency: 0.05)
        #expect(network.finishTime(bytes: 250_000, start: 3) == 4)
        #expect(network.requestLatency(at: 10) == 0.05)
    }

    @Test("a transfer crossing bandwidth changes integrates each stretch at its own rate")
    func acrossChanges() {
        var network = NetworkModel(bitsPerSecond: 8_000)  // 1000 bytes per second
        network.setBandwidth(16_000, at: 2)  // 2000 bytes per second from t = 2
        // From t = 1: 1000 bytes by t = 2, the other 3000 take 1.5 s more.
        #expect(network.finishTime(bytes: 4_000, start: 1) == 3.5)
    }

    @Test("an outage stops the flow and the bandwidth returns to what it was afterwards")
    func outage() {
        var network = NetworkModel(bitsPerSecond: 8_000)
        network.addOutage(at: 1, duration: 10)
        #expect(network.bandwidth(at: 5) == 0)
        #expect(network.bandwidth(at: 11) == 8_000)
        #expect(network.finishTime(bytes: 2_000, start: 0) == 12)
        network.setBandwidth(0, at: 20)
        #expect(network.finishTime(bytes: 100_000, start: 12) == .infinity)
    }

    @Test("a trace shorter than the session loops from its start")
    func looping() throws {
        let trace = try NetworkTrace(steps: [
            .init(duration: 1, bitsPerSecond: 8_000), .init(duration: 1, bitsPerSecond: 0),
        ])
        let network = NetworkModel(trace: trace)
        #expect(network.bandwidth(at: 0.5) == 8_000)
        #expect(network.bandwidth(at: 1.5) == 0)
        #expect(network.bandwidth(at: 10.25) == 8_000)
        // 1000 bytes per second for half of every 2 s: 2500 bytes need 2 full on-periods and half of a third.
        #expect(network.finishTime(bytes: 2_500, start: 0) == 4.5)
        let changes = network.bandwidthChanges(from: 0, to: 4)
        #expect(changes.map(\.time) == [1, 2, 3])
    }

    @Test("a Sabre-style step latency applies to requests started in that step; a scripted latency wins")
    func stepLatency() throws {
        let trace = try NetworkTrace(steps: [
            .init(duration: 5, bitsPerSecond: 1e6, latency: 0.1), .init(duration: 5, bitsPerSecond: 1e6),
        ])
        var network = NetworkModel(trace: trace, latency: 0.02)
        #expect(network.requestLatency(at: 1) == 0.1)
        #expect(network.requestLatency(at: 6) == 0.02)
        #expect(network.requestLatency(at: 11) == 0.1)
        network.setLatency(0.5, at: 20)
        #expect(network.requestLatency(at: 21) == 0.5)
    }

    @Test("the two-column format reads seconds and Mbit/s; the last row lasts as long as the one before")
    func columns() throws {
        let trace = try NetworkTrace.parseColumns("# time mbps\n0 1.5\n1\t3.0\n\n3.0, 0.5\n")
        #expect(trace.steps.map(\.duration) == [1, 2, 2])
        #expect(trace.steps.map(\.bitsPerSecond) == [1.5e6, 3e6, 0.5e6])
        #expect(trace.period == 5)
    }

    @Test("an optional third column is each row's request latency in milliseconds; rows without it have none")
    func latencyColumn() throws {
        let trace = try NetworkTrace.parseColumns("0 1.5 120\n1 3.0\n3 0.5 0\n")
        #expect(trace.steps.map(\.latency) == [0.12, nil, 0])
        #expect(trace.carriesLatency)
        #expect(try !NetworkTrace.parseColumns("0 1\n1 2\n").carriesLatency)
    }

    @Test(
        "malformed two-column traces name the line",
        arguments: [("0 1\nx y\n", 2), ("0 1\n0 2\n", 2), ("0 -1\n", 1), ("\n# only\n", nil), ("0 1\n1 2 -5\n", 2), ("0 1 x\n", 1)] as [(String, Int?)])
    func badColumns(text: String, line: Int?) {
        #expect {
            _ = try NetworkTrace.parseColumns(text)
        } throws: { error in
            (error as? NetworkTraceError)?.line == line
        }
    }
}
