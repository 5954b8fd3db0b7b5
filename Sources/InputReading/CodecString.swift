/// One entry of an HLS `CODECS` attribute (an RFC 6381 codec string such as `avc1.64001f` or `mp4a.40.2`),
/// parsed once into what FFmpeg can be compared with: the codec family (named as FFmpeg names the codec),
/// and where the string encodes them, the profile and level in FFmpeg's numbering (`codecpar.profile`,
/// `codecpar.level`).
///
/// Recognised: `avc1`/`avc3` (`PPCCLL` hex, or the old `avc1.PP.LL` decimal form), `hvc1`/`hev1`
/// (`.P.C.TL.x`), `dvh1`/`dvhe` (HEVC, Dolby Vision), `av01.P...`, `vp09.PP...`, `vp08`, `mp4a.40.N`
/// (AAC Main/LC/HE/HEv2, `.34` MP3), `mp4a.69`/`mp4a.6B` (MP3), `mp4a.A5`/`ac-3`, `mp4a.A6`/`ec-3`,
/// `opus`, `fLaC`, `alac`, `mp4v.20` (MPEG-4 Part 2); subtitle formats (`wvtt`, `stpp`, `tx3g`) are known
/// and never compared. Anything else is kept as written with no family: not verifiable.
package struct CodecString: Sendable, Hashable {
    /// A codec as FFmpeg names it (`AVCodecDescriptor.name`).
    package enum Family: String, Sendable, Hashable, CaseIterable {
        case h264, hevc, av1, vp9, vp8, mpeg4
        case aac, mp3, ac3, eac3, opus, flac, alac
        /// Subtitles (WebVTT, TTML, 3GPP text): FFmpeg's segment probe does not compare them.
        case subtitle

        /// Whether the family is a video codec (else audio, or subtitles).
        package var isVideo: Bool { [.h264, .hevc, .av1, .vp9, .vp8, .mpeg4].contains(self) }

        /// Whether FFmpeg's codec `name` is this family (MP3 in MPEG-TS is sometimes found as `mp2`'s
        /// layer-3 sibling, and both are "MPEG audio" to `mp4a.69`).
        package func matches(ffmpegName name: String) -> Bool {
            switch self {
            case .mp3: ["mp3", "mp3float", "mp2", "mp3adu"].contains(name)
            case .subtitle: false
            default: name == rawValue
            }
        }
    }

    /// The entry as written (spaces trimmed).
    package var text: String
    /// The codec, `nil` when the string is not one bufprobe recognises.
    package var family: Family?
    /// Profile in FFmpeg's numbering (H.264 `profile_idc`, HEVC `general_profile_idc`, AAC object type
    /// minus one, AV1 `seq_profile`, VP9 profile), when the string encodes one.
    package var profile: Int?
    /// Level in FFmpeg's numbering (H.264 `level_idc`, HEVC `general_level_idc`), when encoded.
    package var level: Int?

    /// Parses one entry; never fails (an unknown string has no family).
    package init(_ written: String) {
        text = String(written.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let tag = parts.first ?? ""
        switch tag.lowercased() {
        case "avc1", "avc3", "dva1", "dvav":
            family = .h264
            if parts.count == 2, parts[1].count == 6, let value = Int(parts[1], radix: 16) {
                profile = value >> 16
                level = value & 0xFF
            } else if parts.count == 3, let p = Int(parts[1]), let l = Int(parts[2]), (0...255).contains(p), (0...255).contains(l) {
                profile = p
                level = l
            }
        case "hvc1", "hev1", "dvh1", "dvhe":
            family = .hevc
            if tag.lowercased().hasPrefix("h"), parts.count >= 4 {
                // general_profile_space as an optional letter, then general_profile_idc.
                let idc = parts[1].drop { $0 == "A" || $0 == "B" || $0 == "C" }
                profile = Int(idc).flatMap { (0...31).contains($0) ? $0 : nil }
                // general_tier_flag as L or H, then general_level_idc.
                let tierLevel = parts[3]
                if let first = tierLevel.first, first == "L" || first == "H" {
                    level = Int(tierLevel.dropFirst()).flatMap { (0...255).contains($0) ? $0 : nil }
                }
            }
        case "av01":
            family = .av1
            if parts.count >= 2 { profile = Int(parts[1]).flatMap { (0...2).contains($0) ? $0 : nil } }
        case "vp09":
            family = .vp9
            if parts.count >= 2 { profile = Int(parts[1]).flatMap { (0...3).contains($0) ? $0 : nil } }
        case "vp08", "vp8":
            family = .vp8
        case "mp4v":
            family = parts.count >= 2 && parts[1] == "20" ? .mpeg4 : nil
        case "mp4a":
            (family, profile) = Self.mp4a(parts.dropFirst().map { $0.lowercased() })
        case "ac-3":
            family = .ac3
        case "ec-3":
            family = .eac3
        case "opus":
            family = .opus
        case "flac":
            family = .flac
        case "alac":
            family = .alac
        case "wvtt", "stpp", "tx3g", "c608":
            family = .subtitle
        default:
            family = nil
        }
    }

    /// `mp4a.OTI[.AOT]`: the object type indication (hex) and, for MPEG-4 audio (`40`), the audio object type.
    private static func mp4a(_ rest: [String]) -> (Family?, Int?) {
        guard let oti = rest.first else { return (nil, nil) }
        switch oti {
        case "40":
            guard rest.count >= 2 else { return (.aac, nil) }
            switch rest[1] {
            // FFmpeg numbers AAC profiles as the object type minus one: Main 0, LC 1, HE 4, HEv2 28.
            case "1", "2", "4", "5", "29": return (.aac, Int(rest[1]).map { $0 - 1 })
            case "3": return (.aac, 2)
            case "32", "33", "34": return (.mp3, nil)
            default: return (.aac, nil)
            }
        case "66", "67", "68": return (.aac, nil)
        case "69", "6b": return (.mp3, nil)
        case "a5": return (.ac3, nil)
        case "a6": return (.eac3, nil)
        default: return (nil, nil)
        }
    }

    /// Every entry of a `CODECS` attribute value (comma-separated); empty entries are dropped.
    package static func list(_ attribute: String) -> [CodecString] {
        attribute.split(separator: ",").map { CodecString(String($0)) }.filter { !$0.text.isEmpty }
    }
}
