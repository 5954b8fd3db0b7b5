package import MediaIO
package import PlaybackModel

extension Packet {
    /// The packet as the model takes it: MediaIO and the model know nothing of each other, the
    /// commands translate.
    package var modelPacket: MediaPacket {
        MediaPacket(
            stream: stream, pts: pts, dts: dts, duration: duration, size: size, position: position,
            isKeyframe: isKeyframe)
    }
}
