internal import CFFmpeg

/// The FFmpeg libraries bufprobe runs with, as `ffprobe -version` lists them: the release string and the
/// major.minor.micro of libavformat, libavcodec and libavutil, read from the loaded libraries (not the
/// headers bufprobe was built against), so a report says what actually read the media.
public struct FFmpegVersions: Sendable, Hashable, Codable {
    /// FFmpeg's release string (`av_version_info()`), such as `5.1.6-0+deb12u1`.
    public var ffmpeg: String
    /// libavformat's version, such as `59.27.100`.
    public var libavformat: String
    /// libavcodec's version, such as `59.37.100`.
    public var libavcodec: String
    /// libavutil's version, such as `57.28.100`.
    public var libavutil: String

    /// The versions of the libraries loaded in this process.
    public static let current = FFmpegVersions(
        ffmpeg: av_version_info().map { String(cString: $0) } ?? "unknown",
        libavformat: dotted(avformat_version()), libavcodec: dotted(avcodec_version()),
        libavutil: dotted(avutil_version()))

    /// Creates a list of versions (for tests and decoding).
    public init(ffmpeg: String, libavformat: String, libavcodec: String, libavutil: String) {
        self.ffmpeg = ffmpeg
        self.libavformat = libavformat
        self.libavcodec = libavcodec
        self.libavutil = libavutil
    }

    /// `ffmpeg 5.1.6-0+deb12u1 (libavformat 59.27.100, libavcodec 59.37.100, libavutil 57.28.100)`.
    public var summary: String {
        "ffmpeg \(ffmpeg) (libavformat \(libavformat), libavcodec \(libavcodec), libavutil \(libavutil))"
    }

    /// AV_VERSION_INT packs major << 16 | minor << 8 | micro.
    private static func dotted(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)"
    }
}
