package import PlaybackModel
package import BufprobeOutput

extension SimulateReport {
    /// One request of `request_log`, as `SimulationRequest` records it.
    package struct Request: Sendable, Codable, Hashable {
        /// `video` or `audio`.
        package var track: String
        /// `segment`, `replacement` (a buffered segment fetched again at a higher variant), `initialization`,
        /// `file` (a progressive file's media), `file_head` or `file_index`.
        package var kind: String
        /// The ascending ladder index of the variant (`--abr`); `null` without a ladder.
        @NullEncoded package var variant: Int?
        /// The segment's index (0 = first) for `segment` and `replacement`; `null` otherwise.
        @NullEncoded package var segment: Int?
        /// Session seconds it was sent.
        package var start: Double
        /// Session seconds its latest byte arrived, or it was dropped; `null` before any byte arrived.
        @NullEncoded package var end: Double?
        /// Bytes of it that arrived.
        package var bytes: Int64
        /// Whether it was dropped before all of it arrived.
        package var abandoned: Bool
    }

    /// Adds the tracks and the request log of `engine`'s session, and the audio track's description.
    package mutating func addTracks(of engine: SimulationEngine, audio: String?) {
        let s = JSONOutput.seconds
        if engine.fetchesAudioTrack {
            tracks = ["video", "audio"]
            source.audio = audio
        }
        requestLog = engine.requestLog.map { request in
            Request(
                track: request.track.rawValue, kind: Self.kindName(request.kind), variant: request.variant,
                segment: request.segment, start: s(request.start), end: request.end.map(s), bytes: request.bytes,
                abandoned: request.abandoned)
        }
    }

    /// The JSON word of a request's kind.
    private static func kindName(_ kind: SimulationRequest.Kind) -> String {
        switch kind {
        case .segment: "segment"
        case .replacement: "replacement"
        case .initialization: "initialization"
        case .file: "file"
        case .fileHead: "file_head"
        case .fileIndex: "file_index"
        }
    }
}
