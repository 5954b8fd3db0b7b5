/// Units handed over while they are still being read, so that a simulation can run beside the reading of
/// its file instead of after it (`SimulationMedia.fed(_:unitCount:playableStreams:startTime:endTime:totalBytes:download:)`).
///
/// The feed belongs to whoever reads the file (SimulateEngine's `SimulationRunAhead`); the model only waits
/// on it. The units are written once, in download order, into storage that never moves (`base`), and
/// become readable a batch at a time. A run over a feed is a guess made from the container's header (the
/// unit count, the start and end, the size): the reader checks the guess against the media it finally
/// loads, and keeps the run only when every unit and figure matches, so a fed run is never wrong, only
/// sometimes wasted.
public protocol SimulationUnitFeed: AnyObject, Sendable {
    /// Where the units are written, in order; valid as long as the feed lives.
    var base: UnsafePointer<SimulationMedia.Unit> { get }
    /// Waits until unit `index` is written, and returns how many units are readable from `base` (more
    /// than `index`); `nil` when the reading ended before it (the run is then wasted).
    func available(through index: Int) -> Int?
    /// Marks the run as wasted: it asked for something a feed cannot answer before the reading ends (a
    /// seek point).
    func invalidate()
}

extension SimulationMedia {
    /// Media whose units come from `feed` as they are read: the figures are the reader's guess from the
    /// container's header, checked by the reader once the file is loaded (`SimulationUnitFeed`).
    public static func fed(
        _ feed: any SimulationUnitFeed, unitCount: Int, playableStreams: [Int], startTime: Double, endTime: Double,
        totalBytes: Int64, download: DownloadLayout
    ) -> SimulationMedia {
        SimulationMedia(
            storage: .fed(feed), unitCount: unitCount, layout: .progressive, playableStreams: playableStreams,
            startTime: startTime, endTime: endTime, totalBytes: totalBytes, download: download)
    }
}
