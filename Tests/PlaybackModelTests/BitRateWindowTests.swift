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

    @Test("fused lengths give each length's brute-force peak, through ring growth", arguments: [7, 300, 3000])
    func fusedMatchesReference(count: Int) {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let lengths = [1.0, 5, 10, 0.25]
        var windows = BitRateWindows(lengths: lengths)
        var time = 0.0
        var packets: [(time: Double, size: Int)] = []
        for _ in 0..<count {
            // Mostly forward, now and then a little back (interleaved streams), never a whole window.
            time += Double(next() % 60) / 1000 - (next() % 10 == 0 ? 0.1 : 0)
            let size = Int(next() % 5000)
            packets.append((time, size))
            windows.add(time: time, size: size)
        }
        for (index, length) in lengths.enumerated() {
            // The reference for time that steps back: first in, first out, as the single window does.
            var single = BitRateWindow(window: length)
            for packet in packets { single.add(time: packet.time, size: packet.size) }
            #expect(windows.peakBytes(at: index) == single.peakBytes, "length \(length)")
            #expect(windows.peakBitsPerSecond(at: index) == Double(single.peakBytes) * 8 / length)
        }
        #expect(windows.peakBytes(at: 3) <= windows.peakBytes(at: 0))
    }

    @Test("fused lengths on increasing time match the brute-force reference", arguments: [1.0, 5.0])
    func fusedIncreasing(length: Double) {
        var time = 0.0
        var packets: [(time: Double, size: Int)] = []
        var windows = BitRateWindows(lengths: [length, 2 * length])
        for step in 0..<2000 {
            time += Double((step * 7919) % 41) / 1000
            let size = (step * 104_729) % 3000
            packets.append((time, size))
            windows.add(time: time, size: size)
        }
        #expect(windows.peakBytes(at: 0) == naivePeak(packets, window: length))
        #expect(windows.peakBytes(at: 1) == naivePeak(packets, window: 2 * length))
    }

    @Test("timestamps that jump back by more than the window restart it: old packets expire, memory stays one window")
    func discontinuity() {
        var window = BitRateWindow(window: 1)
        // 20 s at 100 packets/s, then the clock restarts at 0 (an HLS discontinuity) for another 20 s.
        for round in 0..<2 {
            for step in 0..<2_000 {
                window.add(time: Double(step) / 100, size: round == 0 ? 10 : 20)
                #expect(window.heldPackets <= 101)
            }
        }
        // The peak is the second run's alone: nothing of the first run is counted with it.
        let second = (0..<2_000).map { (time: Double($0) / 100, size: 20) }
        #expect(window.peakBytes == naivePeak(second, window: 1))
        #expect(window.peakBytes < 2 * 100 * 20)
    }

    @Test("time that never advances is held up to the bound, then the oldest packets leave")
    func stuckClock() {
        var window = BitRateWindow(window: 1)
        for _ in 0..<(BitRateWindows.maxEntries + 100) { window.add(time: 5, size: 1) }
        #expect(window.heldPackets <= BitRateWindows.maxEntries)
        #expect(window.peakBytes == BitRateWindows.maxEntries)
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
