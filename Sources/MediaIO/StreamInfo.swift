internal import CFFmpeg

/// What the container says about one stream, copied out of the borrowed `AVStream` and its
/// `codecpar` when the input is opened (the pointers themselves never leave `MediaInput`).
public struct StreamInfo: Sendable, Hashable {
    /// Index of the stream in the container.
    public var index: Int
    /// Video, audio, subtitle...
    public var type: MediaType
    /// Short codec name (`h264`, `aac`, `opus`...), as ffprobe's `codec_name`.
    public var codec: String
    /// Codec profile name (`High`, `LC`...), when the codec has one.
    public var profile: String?
    /// The codec's numeric profile (`codecpar.profile`: H.264 `profile_idc` with FFmpeg's constraint
    /// flags above bit 8, AAC's object type minus one, HEVC's `general_profile_idc`), when known.
    public var profileID: Int?
    /// The codec's numeric level (`codecpar.level`: H.264 `level_idc` such as 30 for 3.0, HEVC
    /// `general_level_idc` such as 93 for 3.1), when known.
    public var level: Int?
    /// The stream's time base: packet timestamps count in these units.
    public var timeBase: Rational
    /// Duration the container declares for the stream, in seconds; `nil` when it declares none.
    public var declaredDuration: Double?
    /// Start time the container declares for the stream, in seconds.
    public var startTime: Double?
    /// Frame count the container declares (`nb_frames`), when it has one.
    public var declaredFrames: Int64?
    /// Where the container says the stream's media ends, in seconds: its start plus its duration, summed in
    /// ticks (an MP4's last packet ends exactly there); `nil` when either is not declared.
    public var declaredEnd: Double?
    /// Bit rate the codec parameters declare, in bits per second; `nil` when unknown.
    public var bitRate: Int64?
    /// Average frame rate (`avg_frame_rate`) for video.
    public var frameRate: Rational?
    /// The lowest frame rate that represents every timestamp exactly (`r_frame_rate`), for video: set
    /// where `avg_frame_rate` is not (an MPEG-TS segment often has only this one).
    public var realFrameRate: Rational?
    /// Picture size for video.
    public var width: Int?
    /// Picture size for video.
    public var height: Int?
    /// Pixel format name for video (`yuv420p`...).
    public var pixelFormat: String?
    /// Sample rate for audio, in Hz.
    public var sampleRate: Int?
    /// Channel count for audio, from the `ch_layout` API.
    public var channels: Int?
    /// Channel layout description for audio (`stereo`, `5.1`...).
    public var channelLayout: String?
    /// Disposition flags by name (`default`, `forced`, `attached_pic`...).
    public var disposition: [String]

    /// Whether the stream is a cover image rather than a timeline of frames.
    public var isAttachedPicture: Bool { disposition.contains("attached_pic") }

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let st = stream.pointee
        let par = st.codecpar.pointee
        index = Int(st.index)
        type = MediaType(par.codec_type)
        codec = String(cString: avcodec_get_name(par.codec_id))
        profile = avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) }
        // FF_PROFILE_UNKNOWN and FF_LEVEL_UNKNOWN are -99.
        profileID = par.profile >= 0 ? Int(par.profile) : nil
        level = par.level > 0 ? Int(par.level) : nil
        timeBase = Rational(st.time_base)
        declaredDuration = timeBase.seconds(st.duration)
        startTime = timeBase.seconds(st.start_time)
        declaredFrames = st.nb_frames > 0 ? st.nb_frames : nil
        // Both come from the file: a sum that would overflow is no end at all.
        let (end, overflow) = st.start_time.addingReportingOverflow(st.duration)
        declaredEnd =
            st.start_time == cffmpeg_nopts_value() || st.duration <= 0 || st.duration == cffmpeg_nopts_value() || overflow
            ? nil : timeBase.seconds(end)
        bitRate = par.bit_rate > 0 ? par.bit_rate : nil
        let avgRate = Rational(st.avg_frame_rate)
        frameRate = type == .video && avgRate.value != nil ? avgRate : nil
        let baseRate = Rational(st.r_frame_rate)
        realFrameRate = type == .video && baseRate.value != nil ? baseRate : nil
        if type == .video {
            width = par.width > 0 ? Int(par.width) : nil
            height = par.height > 0 ? Int(par.height) : nil
            pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)).map { String(cString: $0) }
        }
        if type == .audio {
            sampleRate = par.sample_rate > 0 ? Int(par.sample_rate) : nil
            var layout = par.ch_layout
            channels = layout.nb_channels > 0 ? Int(layout.nb_channels) : nil
            channelLayout = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
                guard layout.nb_channels > 0,
                    av_channel_layout_describe(&layout, buffer.baseAddress, 128) > 0
                else { return nil }
                return String(cString: buffer.baseAddress!)
            }
        }
        var names: [String] = []
        var bit: Int32 = 1
        while bit != 0 && bit <= st.disposition {
            if st.disposition & bit != 0, let name = av_disposition_to_string(bit) {
                names.append(String(cString: name))
            }
            bit = bit << 1
        }
        disposition = names
    }
}
