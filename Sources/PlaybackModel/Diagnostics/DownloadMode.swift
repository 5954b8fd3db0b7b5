/// How a player fetches a progressive file whose index (an MP4 `moov`) follows the media; files with the
/// index first (or none) download the same way in both modes.
public enum DownloadMode: String, Sendable, Hashable, CaseIterable {
    /// By range requests, as libavformat (so mpv and `bufprobe check`) does over HTTP: a first
    /// request from byte 0 that stops once the demuxer has read the bytes before the media (the header and
    /// the media box's header, where it learns the index is not there), a second for the index at the
    /// tail, a third for the media from its start. Three latencies; the index's bytes come on top.
    case ranges
    /// One request from byte 0, in file order: nothing plays before every byte up to the index's end (the
    /// whole file, in practice) is in.
    case sequential
}
