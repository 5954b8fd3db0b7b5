import PlaybackModel
import Testing

@Suite("BitRateWindow: the peak of bytes inside any window of media time")
struct BitRateWindowTests {
    /// The reference: for every packet, the bytes of all packets in (t - window, t], by brute force.
    func naivePeak(_ packets: [(time: Double, size: Int)], window: Double) -> Int {
        packets.map { last in
            packets.filter { $0.time > last.time - window && $0.time <= last.time }.reduce(0) { $0 + $1.size }
        }.max() ?? 0
    }

    @Test("a burst inside one window is the peak; packets a window apart never add up")
    func burst() {
        var window = BitRateWindow(window: 1)
        for (time, size) in [(0.0, 100), (0.5, 100), (1.0, 100), (1.2, 1000), (1.9, 1000), (2.9, 10)] {
            window.add(time: time, size: size)
        }
        // (0.9, 1.9] holds 100 + 1000 + 1000; 0.5 left the window when 1.9 - 1 = 0.9 passed it.
        #expect(window.peakBytes == 2100)
        #expect(window.peakBitsPerSecond == 16800)
    }

    @Test("matches the brute-force peak on 3,000 seeded packets, across compactions", arguments: [0.5, 1.0, 5.0])
    func matchesReference(length: Double) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var time = 0.0
        var packets: [(time: Double, size: Int)] = []
        var window = BitRateWindow(window: length)
        for _ in 0..<3000 {
            time += Double(next() % 50) / 1000
            let size = Int(next() % 5000)
            packets.append((time, size))
            window.add(time: time, size: size)
        }
        #expect(window.peakBytes == naivePeak(packets, window: length))
    }

    @Test("time that restarts (a looping stream) starts a new run: each run's peak, never their sum")
    func timeGoesBack() {
        var window = BitRateWindow(window: 1)
        // The same 10 s of 25 packets/s at 1000 bytes, three times over, timestamps restarting at 0.
        let run = (0..<250).map { (time: Double($0) / 25, size: 1000) }
        for _ in 0..<3 {
            for packet in run { window.add(time: packet.time, size: packet.size) }
        }
        // Before, the restarted packets never expired and piled up (3 runs' bytes in one window).
        #expect(window.peakBytes == naivePeak(run, window: 1))
    }
}
