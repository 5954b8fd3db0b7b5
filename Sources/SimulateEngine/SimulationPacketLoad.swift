import MediaIO
import PlaybackModel
import InputReading

/// A file's packets turned into simulation units as they are read, on a `PacketWorker`'s thread beside
/// the demuxer (`SimulationSource.load`): the units and where the packets lie in the file's bytes, and
/// the units again for a run beside the reading (`feed`).
struct SimulationPacketLoad: PacketConsumer {
    /// The units so far.
    var builder: SimulationMedia.ProgressiveBuilder
    /// The packets' byte extent so far.
    var extent = SimulationSource.ByteExtent()
    /// Where a run beside the reading takes the units (`SimulationRunAhead`), if one runs.
    var feed: SimulationUnitBuffer?

    /// Streams added while reading need nothing here: each packet names its stream.
    mutating func addStreams(_ streams: [StreamInfo]) {}

    /// Adds the next packet in read order.
    mutating func add(_ packet: Packet) {
        let model = packet.modelPacket
        extent.add(model)
        if let unit = builder.add(model), let feed { feed.append(unit) }
    }
}
