import BufprobeCommands
@testable import CheckEngine
import MediaIO
import InputReading
import Testing

@Suite("RFC 6381 CODECS strings against the streams FFmpeg finds")
struct VariantValidatorTests {
    static let parsing: [(String, CodecString.Family?, Int?, Int?)] = [
        ("avc1.64001f", .h264, 100, 31),
        ("avc1.4D401E", .h264, 77, 30),
        ("avc3.42c00d", .h264, 66, 13),
        ("avc1.66.30", .h264, 66, 30),
        ("avc1.zzzzzz", .h264, nil, nil),
        ("hvc1.1.6.L93.B0", .hevc, 1, 93),
        ("hev1.2.4.H120.90", .hevc, 2, 120),
        ("dvh1.05.06", .hevc, nil, nil),
        ("av01.0.04M.08", .av1, 0, nil),
        ("vp09.02.10.10", .vp9, 2, nil),
        ("vp08", .vp8, nil, nil),
        ("mp4a.40.2", .aac, 1, nil),
        ("mp4a.40.5", .aac, 4, nil),
        ("mp4a.40.29", .aac, 28, nil),
        ("mp4a.40.34", .mp3, nil, nil),
        ("mp4a.6B", .mp3, nil, nil),
        ("mp4a.69", .mp3, nil, nil),
        ("mp4a.A5", .ac3, nil, nil),
        ("ac-3", .ac3, nil, nil),
        ("ec-3", .eac3, nil, nil),
        ("Opus", .opus, nil, nil),
        ("fLaC", .flac, nil, nil),
        ("wvtt", .subtitle, nil, nil),
        ("xyz9.1", nil, nil, nil),
        ("", nil, nil, nil),
        ("avc1.", .h264, nil, nil),
        ("hvc1.1.6.L99999999999999999999.B0", .hevc, 1, nil),
    ]

    @Test("each codec string gives its codec, profile and level in FFmpeg's numbering", arguments: parsing)
    func parse(text: String, family: CodecString.Family?, profile: Int?, level: Int?) {
        let codec = CodecString(text)
        #expect(codec.family == family, "\(text)")
        #expect(codec.profile == profile, "\(text)")
        #expect(codec.level == level, "\(text)")
    }

    static let h264High = VariantValidator.Stream(type: .video, codec: "h264", profileID: 100, profileName: "High", level: 31)
    static let h264ConstrainedBaseline = VariantValidator.Stream(type: .video, codec: "h264", profileID: 578, profileName: "Constrained Baseline", level: 30)
    static let aacLC = VariantValidator.Stream(type: .audio, codec: "aac", profileID: 1, profileName: "LC")
    static let aacHE = VariantValidator.Stream(type: .audio, codec: "aac", profileID: 4, profileName: "HE-AAC")

    /// (declared CODECS, streams found, audio from a rendition, mismatches, unverified)
    static let comparisons: [(String, [VariantValidator.Stream], Bool, Int, Int)] = [
        ("avc1.64001f,mp4a.40.2", [h264High, aacLC], false, 0, 0),
        // FFmpeg's constraint flag above profile_idc is not a different profile.
        ("avc1.42c01e,mp4a.40.2", [h264ConstrainedBaseline, aacLC], false, 0, 0),
        // A lower real level plays wherever the declared one does.
        ("avc1.640028,mp4a.40.2", [h264High, aacLC], false, 0, 0),
        ("avc1.64001e,mp4a.40.2", [h264High, aacLC], false, 1, 0),
        ("avc1.4d401f,mp4a.40.2", [h264High, aacLC], false, 1, 0),
        ("hvc1.1.6.L93.B0,mp4a.40.2", [h264High, aacLC], false, 2, 0),
        ("avc1.64001f", [h264High, aacLC], false, 1, 0),
        ("avc1.64001f,mp4a.40.2,ac-3", [h264High, aacLC], false, 1, 0),
        ("avc1.64001f,mp4a.40.2", [h264High], true, 0, 1),
        ("mp4a.40.5", [aacLC], false, 0, 1),
        ("mp4a.40.2", [aacHE], false, 1, 0),
        ("avc1.64001f,xyz9.1", [h264High, aacLC], false, 0, 2),
        ("avc1.64001f,mp4a.40.2,wvtt", [h264High, aacLC], false, 0, 0),
        // A bare mp4a names no codec: not comparable, nor is the AAC stream it may stand for.
        ("avc1,mp4a", [h264High, aacLC], false, 0, 2),
    ]

    @Test("declared codecs against found streams: missing, extra, wrong profile or level; lenient where FFmpeg cannot tell", arguments: comparisons)
    func compare(declared: String, found: [VariantValidator.Stream], rendition: Bool, mismatches: Int, unverified: Int) {
        let result = VariantValidator.compareCodecs(declared: declared, found: found, audioInRendition: rendition)
        #expect(result.mismatches.count == mismatches, "\(declared): \(result.mismatches)")
        #expect(result.unverified.count == unverified, "\(declared): \(result.unverified)")
    }

    @Test("a variant's every comparison in one call: resolution, frame rate within 1%, peak and average against the 10% rule")
    func validate() throws {
        let playlist = try HLSPlaylist.parse("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=800000,RESOLUTION=1920x1080,FRAME-RATE=29.97,CODECS="avc1.64001f,mp4a.40.2"
            v.m3u8
            """)
        let variant = try #require(playlist.variants.first)
        var video = Self.h264High
        video.width = 640
        video.height = 360
        video.frameRate = 30
        let sizes = [
            VariantValidator.SegmentSize(bytes: 125_000, duration: 1),  // 1.0 Mbit/s
            VariantValidator.SegmentSize(bytes: 137_000, duration: 1),  // 1.096 Mbit/s: within 10%
            VariantValidator.SegmentSize(bytes: 1, duration: 0),  // no duration: not counted
            VariantValidator.SegmentSize(bytes: .max, duration: .leastNonzeroMagnitude),  // no finite bit rate: not counted
        ]
        let check = VariantValidator.validate(index: 2, variant: variant, streams: [video, Self.aacLC], sizes: sizes)
        #expect(check.problems.map(\.kind) == [.resolutionMismatch, .averageBandwidthExceeded], "\(check.problems)")
        #expect(check.problems.first?.message == "Variant 2 (v.m3u8) declares RESOLUTION=1920x1080 but its video is 640x360.")
        #expect(check.measured.segmentsMeasured == 2)
        #expect(check.measured.peakBitRate == 1_096_000)
        #expect(check.measured.averageBitRate == 1_048_000)

        video.frameRate = 25
        let slow = VariantValidator.validate(index: 0, variant: variant, streams: [video, Self.aacLC], sizes: [])
        #expect(slow.problems.map(\.kind).contains(.frameRateMismatch))
        #expect(slow.measured.peakBitRate == nil)
        #expect(slow.unverified.contains { $0.contains("BANDWIDTH is not verifiable") })
    }
}
