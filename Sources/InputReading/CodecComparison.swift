package import MediaIO

/// A variant's declared `CODECS` against the streams its media really has, as pure functions: one rule
/// shared by `check --all-variants` (`VariantValidator`) and `validate` (apple:9.2). Lenient where FFmpeg
/// cannot tell (a codec string it does not know, audio carried by an `#EXT-X-MEDIA` rendition, an AAC whose
/// SBR is signalled only implicitly): those are `unverified` clauses, never mismatches.
package enum CodecComparison {
    /// One audio or video stream found in a segment, as the comparison needs it.
    package struct Stream: Sendable, Hashable {
        /// Video or audio.
        package var type: MediaType
        /// FFmpeg's codec name.
        package var codec: String
        /// FFmpeg's numeric profile, when known.
        package var profileID: Int?
        /// FFmpeg's profile name, when known.
        package var profileName: String?
        /// FFmpeg's numeric level, when known.
        package var level: Int?
        /// Picture size (video).
        package var width: Int?
        /// Picture size (video).
        package var height: Int?
        /// Frames per second (video).
        package var frameRate: Double?

        /// A stream described by hand (tests) or from `StreamInfo`.
        package init(
            type: MediaType, codec: String, profileID: Int? = nil, profileName: String? = nil, level: Int? = nil,
            width: Int? = nil, height: Int? = nil, frameRate: Double? = nil
        ) {
            self.type = type
            self.codec = codec
            self.profileID = profileID
            self.profileName = profileName
            self.level = level
            self.width = width
            self.height = height
            self.frameRate = frameRate
        }

        /// The stream as FFmpeg found it (average frame rate, else the timestamps' base rate).
        package init(_ info: StreamInfo) {
            self.init(
                type: info.type, codec: info.codec, profileID: info.profileID, profileName: info.profile, level: info.level,
                width: info.width, height: info.height, frameRate: (info.frameRate ?? info.realFrameRate)?.value)
        }
    }

    /// `CODECS` against the streams found: `mismatches` (clauses completing "Variant N (uri) ...") for a
    /// declared codec missing from the segment, a stream `CODECS` does not name, a different profile, or a
    /// level above the declared one; `unverified` (clauses) for what cannot be compared.
    package static func compare(
        declared attribute: String, found: [Stream], audioInRendition: Bool
    ) -> (mismatches: [String], unverified: [String]) {
        var mismatches: [String] = []
        var unverified: [String] = []
        let entries = CodecString.list(attribute)
        let streams = found.filter { $0.type == .video || $0.type == .audio }
        var used = Set<Int>()
        let unknown = entries.filter { $0.family == nil }
        for entry in unknown.prefix(8) {
            unverified.append("CODECS entry \(entry.text.prefix(40)) is not one bufprobe can compare")
        }
        for entry in entries {
            guard let family = entry.family, family != .subtitle else { continue }
            let candidate = streams.indices.first { !used.contains($0) && family.matches(ffmpegName: streams[$0].codec) }
            guard let position = candidate else {
                if !family.isVideo, audioInRendition {
                    unverified.append("CODECS names \(entry.text) but the audio comes from the AUDIO rendition group, which is not fetched")
                } else {
                    let kind = family.isVideo ? "video" : "audio"
                    let have = streams.filter { $0.type == (family.isVideo ? .video : .audio) }.map(\.codec)
                    mismatches.append(
                        "declares CODECS \(entry.text) (\(family.rawValue)) but its first segment has no such \(kind) stream"
                            + (have.isEmpty ? "" : " (it has \(have.joined(separator: ", ")))"))
                }
                continue
            }
            used.insert(position)
            let stream = streams[position]
            if let clause = profileMismatch(entry, family: family, stream: stream) {
                mismatches.append(clause)
            } else if let clause = profileUnverifiable(entry, family: family, stream: stream) {
                unverified.append(clause)
            }
        }
        for (position, stream) in streams.enumerated() where !used.contains(position) {
            if !unknown.isEmpty {
                unverified.append("its \(stream.codec) \(stream.type.rawValue) stream may be an unrecognised CODECS entry")
            } else {
                mismatches.append("has a \(stream.codec) \(stream.type.rawValue) stream that CODECS (\(attribute.prefix(80))) does not name")
            }
        }
        return (mismatches, unverified)
    }

    /// The profile or level disagreement of a matched stream, as a clause, or `nil`.
    private static func profileMismatch(_ entry: CodecString, family: CodecString.Family, stream: Stream) -> String? {
        let found = "\(stream.codec)\(stream.profileName.map { " \($0)" } ?? "")"
        guard let declaredProfile = entry.profile, var realProfile = stream.profileID else { return nil }
        switch family {
        case .h264:
            // FFmpeg adds constraint flags above profile_idc (FF_PROFILE_H264_CONSTRAINED, _INTRA).
            realProfile &= 0xFF
        case .aac:
            // An SBR/PS layer signalled only implicitly is found by decoding, or not at all: a stream found
            // as less than it declares is not verifiable, one found as more is mislabelled.
            guard let declaredRank = aacRank(declaredProfile), let realRank = aacRank(realProfile) else {
                return declaredProfile == realProfile ? nil : "declares CODECS \(entry.text) but its audio is \(found)"
            }
            return realRank > declaredRank ? "declares CODECS \(entry.text) but its audio is \(found)" : nil
        case .hevc, .av1, .vp9:
            break
        default:
            return nil
        }
        if realProfile != declaredProfile {
            return "declares CODECS \(entry.text) (profile \(declaredProfile)) but its \(stream.type.rawValue) is \(found) (profile \(realProfile))"
        }
        // A stream below the declared level plays wherever the declared one does; above it, a device
        // chosen by the declared level may not decode it.
        if family == .h264 || family == .hevc, let declaredLevel = entry.level, let realLevel = stream.level,
            realLevel > declaredLevel
        {
            return "declares CODECS \(entry.text) (level \(declaredLevel)) but its \(stream.type.rawValue) is level \(realLevel)"
        }
        return nil
    }

    /// Why a matched stream's profile cannot be compared, or `nil`.
    private static func profileUnverifiable(_ entry: CodecString, family: CodecString.Family, stream: Stream) -> String? {
        if entry.profile != nil, stream.profileID == nil {
            return "FFmpeg did not find the \(stream.codec) profile, so CODECS \(entry.text) is verified by codec only"
        }
        if family == .aac, let declared = entry.profile, let real = stream.profileID,
            let declaredRank = aacRank(declared), let realRank = aacRank(real), realRank < declaredRank
        {
            return "CODECS \(entry.text) declares SBR/PS that FFmpeg did not find in the first segment (implicit signalling), so the AAC profile is not verifiable"
        }
        return nil
    }

    /// AAC LC 0, HE 1, HEv2 2 (each a layer on the one before); `nil` for other profiles.
    private static func aacRank(_ profile: Int) -> Int? {
        switch profile {
        case 1: 0
        case 4: 1
        case 28: 2
        default: nil
        }
    }
}
