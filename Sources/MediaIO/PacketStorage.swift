internal import CFFmpeg

/// Owns the one `AVPacket` a read loop reuses: allocated once, unreferenced after each packet, freed
/// with `av_packet_free` in `deinit`.
final class PacketStorage {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(FFmpegError) {
        guard let packet = av_packet_alloc() else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "av_packet_alloc")
        }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
