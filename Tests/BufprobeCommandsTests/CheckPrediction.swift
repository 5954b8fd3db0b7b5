import MediaIO
import PlaybackModel
import InputReading

/// A sample's packets in the order libavformat returns them, with the byte each one ends at, and what
/// the model's `PlaybackSession` predicts for a given delivery of those bytes: the reference the end-to-end check
/// tests compare `bufprobe check` against.
struct CheckPrediction {
    struct Item {
        var packet: MediaPacket
        var byteEnd: Int64
    }

    let items: [Item]
    let playable: [Int]
    let duration: Double
    let mediaStart: Double
    let size: Int64

    init(path: String) throws {
        let input = try MediaInput(url: path)
        var items: [Item] = []
        var end: Int64 = 0
        while let packet = try input.readPacket() {
            end = max(end, packet.position.map { $0 + Int64(packet.size) } ?? end + Int64(packet.size))
            items.append(Item(packet: packet.modelPacket, byteEnd: end))
        }
        self.items = items
        playable = PlaybackSession.playableStreams(from: input.streamCandidates())
        duration = input.format.duration ?? 0
        mediaStart = input.format.startTime ?? 0
        size = input.format.size ?? end
    }

    /// Where the playable media ends when only the first `bytes` bytes arrived.
    func playableEnd(receivedBytes bytes: Int64) -> Double? {
        var tracker = LoadedRangeTracker(playableStreams: playable)
        for item in items where item.byteEnd <= bytes { tracker.add(item.packet) }
        return tracker.playable.ranges.first?.end
    }

    /// The QoE report of a player fed these packets when byte `b` of the file arrives at `arrival(b)`
    /// seconds (a packet is handed over once its last byte, and every byte before it in reading order,
    /// has arrived), then played to the end.
    func report(policy: BufferPolicy = .default, arrival: (Int64) -> Double) -> QoEReport {
        var session = PlaybackSession(
            playableStreams: playable, duration: .finite(duration), policy: policy, mediaStart: mediaStart, now: 0)
        var now = 0.0
        for item in items {
            now = max(now, arrival(item.byteEnd - 1))
            _ = session.receive(item.packet, now: now)
        }
        _ = session.endOfStream(now: now)
        _ = session.playOut()
        return session.report
    }
}
