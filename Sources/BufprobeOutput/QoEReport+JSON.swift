package import PlaybackModel

extension QoEReport.Stall {
    /// The stall with its times rounded to the microsecond, as every JSON report writes them; `check`
    /// and `simulate` both write the model's own stall type, so their `stalls[]` cannot drift apart.
    package var roundedForJSON: QoEReport.Stall {
        var stall = self
        stall.position = JSONOutput.seconds(position)
        stall.start = JSONOutput.seconds(start)
        stall.duration = JSONOutput.seconds(duration)
        return stall
    }
}

extension QoEReport.Seek {
    /// The seek with its times rounded to the microsecond, as every JSON report writes them.
    package var roundedForJSON: QoEReport.Seek {
        var seek = self
        seek.from = JSONOutput.seconds(from)
        seek.to = JSONOutput.seconds(to)
        seek.start = JSONOutput.seconds(start)
        seek.latency = JSONOutput.seconds(latency)
        return seek
    }
}
