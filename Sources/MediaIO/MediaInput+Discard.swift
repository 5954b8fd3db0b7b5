internal import CFFmpeg

extension MediaInput {
    /// Tells the demuxer to drop every stream whose index is not in `kept` (`AVDISCARD_ALL`), and to
    /// return the kept ones again (`AVDISCARD_DEFAULT`).
    ///
    /// This is how a player picks one HLS or DASH variant: the playlist demuxers stop downloading the
    /// segments of a variant once none of its streams is wanted (FFmpeg's `hls` demuxer re-reads the
    /// discard flags before each packet). Packets of dropped streams that were already buffered may
    /// still be returned for a short while, so callers filter by stream index as well.
    public func discardAllStreams(except kept: Set<Int>) {
        let count = Int(context.pointee.nb_streams)
        for index in 0..<count {
            guard let stream = context.pointee.streams[index] else { continue }
            stream.pointee.discard = kept.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }
}
