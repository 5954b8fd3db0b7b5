
import Foundation
package import PlaybackModel
import BufprobeOutput

/// How fast `check` delivers a local file (`--rate`), so a file can stand in for a slow network in tests
/// and demos: a multiple of real time (`2x`, `0.5x`) or a bit rate (`400k`, `1.5M`, `250000` bit/s).
///
/// The file itself is read as fast as the disk allows; each packet is *handed to the player* no earlier
/// than it would have arrived: at `media offset / multiple` seconds after the first packet, or at
/// `bytes up to the packet's end x 8 / bit rate` seconds after the check began. This paces delivery by
/// packet, not by byte, and takes the container's byte positions as the download order (a file whose index
/// is at its end is not made to wait for it).
public enum ReadRate: Sendable, Hashable, CustomStringConvertible {
    /// Media seconds delivered per wall second.
    case realtime(Double)
    /// Bits delivered per wall second.
    case bitsPerSecond(Double)

    /// Parses `2x`, `0.5x` (a multiple, `Factor`) or a rate in the one grammar of `BitRate` (`400k`,
    /// `1.5Mbit`, `250kB/s`); `nil` for anything else.
    public init?(argument: String) { try? self.init(parsing: argument) }

    /// Parses like `init?(argument:)`, refusing with the `UnitError` sentence (a rate as meant: above 0,
    /// and a unit-less number at least 1,000 bit/s).
    package init(parsing text: String) throws(UnitError) {
        if text.trimmingCharacters(in: .whitespaces).lowercased().hasSuffix("x") {
            self = .realtime(try Factor(parsing: text).value)
            return
        }
        let rate = try BitRate(parsingAsMeant: text, zero: "a pace is above 0, e.g. 400k or 1x.").bitsPerSecond
        self = .bitsPerSecond(rate)
    }

    /// The `transform:` of `--rate`.
    package static func argument(_ text: String) throws -> ReadRate { try ReadRate(parsing: text) }

    /// `2x` or `400 kbit/s`.
    public var description: String {
        switch self {
        case .realtime(let multiple): "\(multiple)x"
        case .bitsPerSecond(let rate): TextFormat.bitRate(rate)
        }
    }

    /// Wall seconds after the check began at which a packet may be delivered.
    /// - Parameters:
    ///   - mediaOffset: the packet's time minus the first packet's time, seconds.
    ///   - firstDelivery: wall seconds at which the first packet was read.
    ///   - byteEnd: bytes of the input up to the end of this packet.
    package func releaseTime(mediaOffset: Double, firstDelivery: Double, byteEnd: Int64) -> Double {
        switch self {
        case .realtime(let multiple): firstDelivery + max(0, mediaOffset) / multiple
        case .bitsPerSecond(let rate): Double(byteEnd) * 8 / rate
        }
    }
}
