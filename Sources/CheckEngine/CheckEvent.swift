package import MediaIO

/// One observation of a running check, as `CheckMachine` takes it: everything the check's report and
/// verdict come from is one of these, with the time it was observed (`Timed.at`, seconds since the check
/// began on the check's clock). The driver (`CheckSession`) turns what it reads, what FFmpeg logs, what the
/// resource gate and the LL-HLS client see into events; observations made on other threads reach the
/// machine in the order it took them, which is the order `--record-events` writes and a replay feeds back
/// (`CheckReplay`). Codable: one JSON object per line, documented in docs/record-events.md.
package enum CheckEvent: Sendable, Codable, Equatable {
    /// The check began; `unixTime` is this machine's clock (Unix seconds) at clock 0, the base of live
    /// latency.
    case began(unixTime: Double)
    /// A line FFmpeg logged on the check's thread: its level (`Logger.Level`'s name) and text.
    case ffmpeg(level: String, text: String)
    /// A playlist FFmpeg's HLS demuxer loaded (the resource gate's copy of its bytes, as UTF-8 text).
    case playlistLoaded(url: String, text: String)
    /// The live media playlist bufprobe read before opening (the input's, or the chosen variant's), where
    /// the check starts (`--live-start`).
    case livePlaylistRead(url: String, playlist: HLSPlaylist)
    /// FFmpeg opened a resource at `url` (the resource gate's hook).
    case resourceOpened(url: String)
    /// `--record-trace`: a request began at the event's time and its response began `latency` later.
    case requestOpened(latency: Double)
    /// A live DASH manifest bufprobe read before opening, and the clock it names.
    case dashManifest(DASHManifestRead)
    /// Requests FFmpeg's DASH demuxer sent since the last such event, and how many it could not log in all.
    case dashRequests([RequestLog.Entry], dropped: Int)
    /// The LL-HLS path is taken for the media playlist at `url`, first loaded as `playlist`.
    case partsPlaylist(url: String, playlist: HLSPlaylist)
    /// The LL-HLS client loaded a playlist: its URL, the load, when the request began, how long it took, and
    /// for a blocking reload the part asked for (`_HLS_msn`, `_HLS_part`, `_HLS_skip`).
    case partsReload(url: String, playlist: HLSPlaylist, began: Double, seconds: Double, asked: PartRequest?)
    /// The LL-HLS client appended a part's bytes at `range` (stream offsets); `wholeSegment` for a segment
    /// fetched whole to catch up.
    case part(HLSPlaylist.Part, start: Int64, end: Int64, wholeSegment: Bool)
    /// The LL-HLS client started playing, `behindEdge` seconds behind the newest listed media.
    case partsStarted(behindEdge: Double)
    /// An LL-HLS request failed or was refused: one sentence naming the URL.
    case partsFailed(String)
    /// The input opened (`open_time` counts from `Opened.openBegan`).
    case opened(Opened)
    /// A packet of a received stream was handed to the player.
    case packet(PacketRead)
    /// A wait on the player's deadline ended: time passed with nothing received.
    case advanced
    /// The check failed before receiving began: the sentence, and what the resource gate skipped.
    case failed(String, requests: Requests)
    /// Opening the input failed with FFmpeg's `error`.
    case openFailed(FFmpegError, requests: Requests)
    /// Receiving stopped: how, and what the resource gate skipped by then.
    case ended(How, requests: Requests)
    /// `--all-variants`: the variants validated, and sentences about what could not be.
    case variantsValidated([VariantCheck], warnings: [String])
    /// The check is over: the requests refused in all, and whether the user stopped it (Ctrl-C).
    case closed(refused: CheckReport.RefusedRequests?, interrupted: Bool)

    /// An event and when it was observed.
    package struct Timed: Sendable, Codable, Equatable {
        /// Seconds since the check began.
        package var at: Double
        /// The observation.
        package var event: CheckEvent

        /// `event`, observed at `at`.
        package init(at: Double, _ event: CheckEvent) {
            self.at = at
            self.event = event
        }
    }

    /// How receiving stopped.
    package enum How: Sendable, Codable, Equatable {
        /// The input ended.
        case endOfFile
        /// The sample limit was reached.
        case sampled
        /// The user stopped the check.
        case interrupted
        /// Reading failed with FFmpeg's error.
        case failed(FFmpegError)
    }

    /// A blocking reload's question (`LowLatencyHLSClient.Request`).
    package struct PartRequest: Sendable, Codable, Equatable {
        /// `_HLS_msn`, `_HLS_part`, `_HLS_skip=YES`.
        package var sequence: Int, part: Int, skip: Bool
    }

    /// What the resource gate refused or skipped, as sentences (`Interrupter.skipped`, its stop reason).
    package struct Requests: Sendable, Codable, Equatable {
        /// The sentence for a stop that was not a timeout or Ctrl-C (a request loop, an oversized playlist).
        package var limit: String?
        /// One warning per resource refused or skipped.
        package var warnings: [String] = []
        /// The resources skipped that the verdict judges: URL and why.
        package var skipped: [Skipped] = []
        /// The LL-HLS part still arriving when reading stopped, as a sentence.
        package var partStalled: String?
        /// Whether the user stopped the check.
        package var cancelled = false
        /// Bytes received in all (`CheckReading.bytesReceived` when receiving stopped).
        package var bytesReceived: Int64 = 0

        /// A skipped resource the verdict judges.
        package struct Skipped: Sendable, Codable, Equatable {
            /// The resource and why it was skipped.
            package var url: String, why: String
        }

        /// Nothing refused or skipped.
        package init() {}
    }

    /// A live DASH manifest as bufprobe read it before opening.
    package struct DASHManifestRead: Sendable, Codable, Equatable {
        /// The manifest as requested, and where it was read from (after redirects).
        package var requested: String, location: String
        /// Its text.
        package var text: String
        /// Seconds since the check began when it was read.
        package var readAt: Double
        /// The `UTCTiming` clock read: its scheme and value, and its offset (seconds ahead of this machine).
        package var timing: Timing?
        /// Why no clock could be read, when none was.
        package var clockProblem: String?

        /// A `UTCTiming` clock that was read.
        package struct Timing: Sendable, Codable, Equatable {
            /// Its `schemeIdUri` and value, and its offset.
            package var scheme: String, value: String, offset: Double
        }
    }

    /// A packet handed to the player, with the driver's byte totals then. Coded as one JSON array (the
    /// most frequent event): `[stream, pts, dts, duration, size, position, flags, video, bytesReceived,
    /// bytesDelivered]`, `flags` 1 for a keyframe plus 2 for a corrupt packet, `null` for what is unknown.
    package struct PacketRead: Sendable, Codable, Equatable {
        /// Its stream, timestamps (seconds), duration, size, byte position and flags.
        package var stream: Int
        package var pts: Double?
        package var dts: Double?
        package var duration: Double?
        package var size: Int
        package var position: Int64?
        package var keyframe: Bool
        package var corrupt: Bool
        /// The input's best video stream (LL-HLS anchors on it), when read through parts.
        package var video: Int?
        /// Bytes received and delivered so far (`CheckReading`).
        package var bytesReceived: Int64
        package var bytesDelivered: Int64

        /// The fields, in the order of `init`.
        package init(
            stream: Int, pts: Double?, dts: Double?, duration: Double?, size: Int, position: Int64?, keyframe: Bool,
            corrupt: Bool, video: Int?, bytesReceived: Int64, bytesDelivered: Int64
        ) {
            (self.stream, self.pts, self.dts, self.duration, self.size, self.position) = (stream, pts, dts, duration, size, position)
            (self.keyframe, self.corrupt, self.video) = (keyframe, corrupt, video)
            (self.bytesReceived, self.bytesDelivered) = (bytesReceived, bytesDelivered)
        }

        /// Reads the array `encode(to:)` writes.
        package init(from decoder: any Decoder) throws {
            var array = try decoder.unkeyedContainer()
            stream = try array.decode(Int.self)
            pts = try array.decodeIfPresent(Double.self)
            dts = try array.decodeIfPresent(Double.self)
            duration = try array.decodeIfPresent(Double.self)
            size = try array.decode(Int.self)
            position = try array.decodeIfPresent(Int64.self)
            let flags = try array.decode(Int.self)
            (keyframe, corrupt) = (flags & 1 != 0, flags & 2 != 0)
            video = try array.decodeIfPresent(Int.self)
            bytesReceived = try array.decode(Int64.self)
            bytesDelivered = try array.decode(Int64.self)
        }

        /// Writes the packet as one array.
        package func encode(to encoder: any Encoder) throws {
            var array = encoder.unkeyedContainer()
            try array.encode(stream)
            for time in [pts, dts, duration] { if let time { try array.encode(time) } else { try array.encodeNil() } }
            try array.encode(size)
            if let position { try array.encode(position) } else { try array.encodeNil() }
            try array.encode((keyframe ? 1 : 0) + (corrupt ? 2 : 0))
            if let video { try array.encode(video) } else { try array.encodeNil() }
            try array.encode(bytesReceived)
            try array.encode(bytesDelivered)
        }
    }

    /// The input as it opened.
    package struct Opened: Sendable, Codable, Equatable {
        /// When opening began (seconds since the check began).
        package var openBegan: Double
        /// The demuxer's name as the report gives it, and whether it reads HLS.
        package var format: String
        package var isHLS: Bool
        /// The variants, and the streams the player plays.
        package var variants: [CheckReport.Variant]
        package var playable: [Int]
        /// Whether it is live, and the container's duration and start time.
        package var isLive: Bool
        package var duration: Double?
        package var startTime: Double?
        /// The sample limit (`--duration`, or the live default).
        package var sampleLimit: Double?
        /// The declared bit rate and its source (`variant`, `representation`, `container`).
        package var declaredBitRate: Int64?
        package var declaredBitRateSource: String?
        /// The sentence for a resource limit met while opening, if one was.
        package var limit: String?
        /// A single file's cut tail where FFmpeg ends it like a whole one (`ContainerTail.sentence`), read
        /// by the driver when the input opened: the check fails with it once the input ends.
        package var tail: String? = nil
    }
}
