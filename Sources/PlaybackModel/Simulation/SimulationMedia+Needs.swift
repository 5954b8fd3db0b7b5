extension SimulationMedia {
    /// What this media needs to play without a stall, computed by `ProgressiveDownloadNeeds`: the one
    /// implementation of the rule, shared with `probe`'s needs table, so the simulator and probe cannot
    /// disagree on the arithmetic. Units of the played streams count in download order; an index after
    /// the media holds every unit back until it is in (`download` sequential), or comes on top of each
    /// unit's bytes after three requests (`download` by range requests); a segmented stream pays one request latency per
    /// segment, one after another, as the engine fetches them.
    public func needs(startupDelays: [Double], bandwidths: [Double], latency: Double = 0) -> ProgressiveDownloadNeeds {
        var needs = ProgressiveDownloadNeeds(startupDelays: startupDelays, bandwidths: bandwidths, latency: latency)
        let played = Set(playableStreams)
        var reader = makeReader()
        for index in 0..<unitCount {
            let unit = reader.unit(index)
            guard unit.stream.map(played.contains) ?? true else { continue }
            needs.add(
                byteEnd: download.bytesNeeded(forByteEnd: unit.byteEnd), presentationTime: unit.start - startTime,
                requests: layout == .segmented ? index + 1 : download.requests)
        }
        return needs
    }
}
