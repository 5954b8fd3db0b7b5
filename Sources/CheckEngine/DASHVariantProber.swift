import Foundation
package import MediaIO
import BufprobeOutput
import InputReading

/// `check --all-variants` for a DASH manifest (static or live): for each video representation, its
/// initialization segment and one media segment are fetched and opened with libavformat from memory, and
/// the first N segments (a live manifest: the newest N complete ones) are sized; `VariantValidator` then
/// compares `@bandwidth`, `@width`x`@height` and `@codecs` with the media, as it compares an HLS variant's
/// `BANDWIDTH`, `RESOLUTION` and `CODECS` (a representation is validated as a variant whose URI is
/// `Representation <id>`, and the sentences name the DASH attributes). `@bandwidth` is held to the rule of
/// HLS's `AVERAGE-BANDWIDTH`, not of `BANDWIDTH`: the average of the sized segments at most 10% above it.
/// DASH defines it as a rate that delivers the representation with `minBufferTime` buffered, so one
/// segment above it is no fault (FFmpeg's muxer writes the average; its own segments peak above it).
///
/// Every request goes through `ResourceReader` with an interrupter for the input (protocol whitelist,
/// `--timeout` for each request, the check's pace per origin and request policy). Bounded: the first
/// `maxRepresentations` video representations, `VariantProber.segmentBytes` per fetched resource,
/// `VariantProber.totalBytes` in all, `--all-variants-budget` in all. Audio representations are not
/// validated (an HLS variant's audio is checked through its video variant's CODECS; a DASH audio
/// representation would need its own rules). A representation addressed by `SegmentBase` (one indexed file)
/// is named as not validated.
package struct DASHVariantProber: Sendable, ValidatesVariants {
    /// The most video representations validated.
    package static let maxRepresentations = 16

    /// The input, options, timeout, segments, interrupters and budget.
    package let validation: VariantValidation

    /// This machine's clock (Unix seconds) the live manifest's availability times are read against.
    private let unixNow: @Sendable () -> Double

    /// A validation of `source`'s representations, within `budget` seconds when given, read on `clock` (by default `root`'s) (and
    /// a live manifest's times on `unixNow`, by default the clock's wall time).
    package init(
        source: String, options: [String: String], timeout: Double, segments: Int, root: Interrupter, pacer: Interrupter,
        budget: Double? = nil, clock: (any CheckClock)? = nil, unixNow: (@Sendable () -> Double)? = nil,
        bandwidthTolerance: Double? = BandwidthRule.tolerance
    ) {
        validation = VariantValidation(
            source: source, options: options, timeout: timeout, segments: max(1, segments), root: root, pacer: pacer,
            budget: budget, clock: clock ?? root.clock, bandwidthTolerance: bandwidthTolerance)
        self.unixNow = unixNow ?? { [clock = clock ?? root.clock] in clock.unixTime() }
    }

    /// One representation to validate: what it declares and where its segments are.
    struct Target {
        var id: String
        var bandwidth: Int
        var width: Int?
        var height: Int?
        var codecs: String?
        var initialization: (url: String, range: DASHManifest.ByteRange?)?
        var segments: [(url: String, range: DASHManifest.ByteRange?, duration: Double)]
    }

    /// Validates every video representation (blocks).
    package func run() -> VariantProber.Outcome {
        var outcome = VariantProber.Outcome()
        guard let location = VariantProber.location(of: source) else {
            outcome.warnings.append("--all-variants: \(source) is not a local path or a network URL, so its representations were not validated.")
            return outcome
        }
        let deadline = request()
        let bytes: [UInt8]
        let base: String
        do {
            let reader = try ResourceReader(url: location, options: options, interrupter: deadline.interrupter)
            bytes = try reader.readAll()
            base = reader.location
            deadline.finish()
        } catch {
            outcome.warnings.append("--all-variants: the DASH manifest \(source) could not be loaded for validation: it \(VariantProber.describe(error)).")
            return outcome
        }
        let targets: [Target]
        do {
            targets = try Self.targets(bytes, base: base, segments: segments, now: unixNow())
        } catch {
            outcome.warnings.append("--all-variants: the DASH manifest \(source) was not validated: it \(error.reason).")
            return outcome
        }
        if targets.count > Self.maxRepresentations {
            outcome.warnings.append("--all-variants: \(source) lists \(targets.count) video representations; only the first \(Self.maxRepresentations) were validated.")
        }
        var bytesLeft = VariantProber.totalBytes
        for (index, target) in targets.prefix(Self.maxRepresentations).enumerated() {
            if budget.isSpent {
                outcome.warnings.append("--all-variants: the validation's time budget ran out before Representation \(target.id) of \(source).")
                break
            }
            outcome.checks.append(validate(index: index, target: target, bytesLeft: &bytesLeft))
        }
        return outcome
    }

    /// The video representations of the manifest's `bytes` (read from `base`), with the segments to fetch:
    /// a static manifest's first `segments`, a live one's newest `segments` complete at `now`.
    static func targets(_ bytes: [UInt8], base: String, segments: Int, now: Double) throws(DASHManifestError) -> [Target] {
        let live = try DASHLiveManifest.parse(bytes)
        if live.isDynamic {
            let origin = (live.availabilityStartTime ?? now) + live.periodStart
            return live.representations.filter { $0.kind == .video }.map { timing in
                let recent = timing.recentSegments(count: segments, at: now, origin: origin)
                return Target(
                    id: timing.id, bandwidth: timing.bandwidth ?? 0, width: timing.width, height: timing.height, codecs: timing.codecs,
                    initialization: timing.initialization.map { (URLReference.resolve($0, against: base), nil) },
                    segments: recent.compactMap { entry in
                        timing.mediaURL(entry.value).map { (URLReference.resolve($0, against: base), nil, entry.duration) }
                    })
            }
        }
        let manifest = try DASHManifest.parse(bytes)
        return manifest.adaptationSets.flatMap(\.representations).filter { $0.kind == .video }.map { representation in
            var listed: [(url: String, range: DASHManifest.ByteRange?, duration: Double)] = []
            if case .listed(let all) = representation.addressing {
                listed = all.prefix(segments).map { (URLReference.resolve($0.resource.url, against: base), $0.resource.range, $0.duration) }
            }
            return Target(
                id: representation.id, bandwidth: representation.bandwidth, width: representation.width, height: representation.height,
                codecs: representation.codecs,
                initialization: representation.initialization.map { (URLReference.resolve($0.url, against: base), $0.range) },
                segments: listed)
        }
    }

    /// The representation as the HLS comparison takes a variant.
    static func variant(_ target: Target) -> HLSPlaylist.Variant {
        var variant = HLSPlaylist.Variant(uri: "Representation \(target.id)", bandwidth: target.bandwidth)
        variant.averageBandwidth = target.bandwidth
        if let width = target.width, let height = target.height { variant.resolution = HLSPlaylist.Resolution(width: width, height: height) }
        variant.codecs = target.codecs
        return variant
    }

    /// HLS attribute names in the comparison's sentences, as DASH names them.
    static func dashWording(_ text: String) -> String {
        text.replacingOccurrences(of: "AVERAGE-BANDWIDTH", with: "@bandwidth")
            .replacingOccurrences(of: "BANDWIDTH=", with: "@bandwidth=")
            .replacingOccurrences(of: "BANDWIDTH", with: "@bandwidth")
            .replacingOccurrences(of: "RESOLUTION=", with: "@width x @height ")
            .replacingOccurrences(of: "RESOLUTION", with: "@width x @height")
            .replacingOccurrences(of: "FRAME-RATE", with: "@frameRate")
            .replacingOccurrences(of: "CODECS", with: "@codecs")
            .replacingOccurrences(of: "master playlist", with: "manifest")
    }

    private func validate(index: Int, target: Target, bytesLeft: inout Int64) -> VariantCheck {
        let variant = Self.variant(target)
        func failed(_ why: String, sizes: [VariantValidator.SegmentSize] = []) -> VariantCheck {
            reworded(VariantValidator.failed(index: index, variant: variant, kind: .segmentFailed, why: why, sizes: sizes))
        }
        guard let first = target.segments.first else {
            return failed("lists no segment bufprobe can fetch (one indexed file, or none complete yet)")
        }
        var media: [UInt8] = []
        if let initialization = target.initialization {
            switch fetch(initialization.url, range: initialization.range, bytesLeft: &bytesLeft) {
            case .success(let bytes): media = bytes
            case .failure(let why): return failed("has an initialization segment that could not be fetched (\(initialization.url) \(why))")
            }
        }
        let segmentBytes: [UInt8]
        switch fetch(first.url, range: first.range, bytesLeft: &bytesLeft) {
        case .success(let bytes): segmentBytes = bytes
        case .failure(let why): return failed("has a segment that could not be fetched (\(first.url) \(why))")
        }
        media += segmentBytes
        var sizes = [VariantValidator.SegmentSize(bytes: Int64(segmentBytes.count), duration: first.duration)]
        let streams: [VariantValidator.Stream]
        do {
            let input = try MediaInput(bytes: media, name: "segment.mp4", interrupter: Interrupter(timeout: .bounded(seconds: timeout), parent: root))
            streams = input.streams.filter { ($0.type == .video && !$0.isAttachedPicture) || $0.type == .audio }.map(VariantValidator.Stream.init)
        } catch {
            return failed("has a segment that does not open as media (\(first.url): \(error.message))", sizes: sizes)
        }
        var problems: [VariantCheck.Problem] = []
        for segment in target.segments.dropFirst() {
            if let range = segment.range {
                sizes.append(VariantValidator.SegmentSize(bytes: range.length, duration: segment.duration))
                continue
            }
            let deadline = request()
            do {
                let reader = try ResourceReader(url: segment.url, options: options, interrupter: deadline.interrupter)
                deadline.finish()
                if let size = reader.size { sizes.append(VariantValidator.SegmentSize(bytes: size, duration: segment.duration)) }
            } catch {
                problems.append(VariantCheck.Problem(
                    kind: .segmentFailed,
                    message: "\(VariantValidator.name(index: index, uri: variant.uri)) has segment \(segment.url) that \(VariantProber.describe(error))."))
            }
        }
        var check = VariantValidator.validate(
            index: index, variant: variant, streams: streams, sizes: sizes, tolerance: validation.bandwidthTolerance)
        check.problems += problems
        return reworded(check)
    }

    private func reworded(_ check: VariantCheck) -> VariantCheck {
        var check = check
        // The peak rule is HLS's BANDWIDTH; @bandwidth is judged by the average (see the type's comment).
        check.problems = check.problems.filter { $0.kind != .bandwidthExceeded }
            .map { VariantCheck.Problem(kind: $0.kind == .averageBandwidthExceeded ? .bandwidthExceeded : $0.kind, message: Self.dashWording($0.message)) }
        check.unverified = check.unverified.map(Self.dashWording)
        return check
    }

    /// Why a fetch failed, as a clause.
    private enum Fetched {
        case success([UInt8])
        case failure(String)
    }

    private func fetch(_ url: String, range: DASHManifest.ByteRange?, bytesLeft: inout Int64) -> Fetched {
        let deadline = request()
        defer { deadline.finish() }
        do {
            let reader = try ResourceReader(url: url, options: options, interrupter: deadline.interrupter, offset: range?.first ?? 0)
            let announced = range?.length ?? reader.size ?? VariantProber.segmentBytes
            guard announced <= VariantProber.segmentBytes else {
                return .failure("is \(TextFormat.bytes(announced)), more than the \(TextFormat.bytes(VariantProber.segmentBytes)) fetched per segment")
            }
            guard announced <= bytesLeft else {
                return .failure("was not fetched: --all-variants fetches at most \(TextFormat.bytes(VariantProber.totalBytes)) in all")
            }
            let bytes = try range.map { try reader.read(count: $0.length) } ?? reader.readAll(limit: VariantProber.segmentBytes)
            bytesLeft -= Int64(bytes.count)
            return .success(bytes)
        } catch {
            return .failure(deadline.finish() ? "did not arrive within \(TextFormat.seconds(timeout)) (--timeout)" : VariantProber.describe(error))
        }
    }
}
