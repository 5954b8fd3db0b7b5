import MediaIO

/// bufprobe's version, shown by `--version` and written into JSON reports.
package enum BufprobeVersion {
    /// The release string.
    package static let string = "0.1.0"

    /// The `User-Agent` every request bufprobe makes carries unless told otherwise: it names bufprobe and
    /// its version, so a server's logs can tell a synthetic viewer (FFmpeg's own would be `Lavf/59...`).
    package static let userAgent = "bufprobe/\(string)"

    /// What `--version` prints: bufprobe's version, then the FFmpeg libraries it runs with, one a line
    /// (as `ffprobe -version` lists them).
    package static var full: String {
        let versions = FFmpegVersions.current
        return """
            bufprobe \(string)
            ffmpeg \(versions.ffmpeg)
            libavformat \(versions.libavformat)
            libavcodec \(versions.libavcodec)
            libavutil \(versions.libavutil)
            """
    }
}
