import Foundation
package import MediaIO
import Synchronization
import BufprobeOutput
import InputReading

/// `check --all-variants`: loads an HLS master playlist and, for each of its variants, the media playlist,
/// the first segment (with its `#EXT-X-MAP` init section) opened with libavformat from memory, and the sizes
/// of the first N segments; `VariantValidator` compares that with what the master declares.
///
/// Every request goes through the input's one remote path: `HLSPlaylist.load` and `ResourceReader` with an
/// `Interrupter` for the input (protocol whitelist, half the timeout for each resource, a remote playlist
/// capped at `ResourceLimits.playlistBytes`), spending the check's own request pace per origin. Bounded:
/// `concurrency` variants at once, the first `maxVariants` variants, `segmentBytes` per fetched segment or init
/// section, `totalBytes` in all; the other segments are sized without their bodies (the byte range's length,
/// or the response's `Content-Length`).
package struct VariantProber: Sendable, ValidatesVariants {
    /// Variants checked side by side.
    package static let concurrency = 4
    /// The most variants checked; a master listing more gets a warning.
    package static let maxVariants = 64
    /// The largest first segment or init section fetched: 32 MiB.
    package static let segmentBytes: Int64 = 32 << 20
    /// The most bytes fetched for all variants together: 256 MiB.
    package static let totalBytes: Int64 = 256 << 20
    /// Segments sized per variant by default (`--all-variants-segments`).
    package static let defaultSegments = 3
    /// The most segments sized per variant.
    package static let maxSegments = 20

    /// The input, options, timeout, segments, interrupters and budget.
    package let validation: VariantValidation

    /// A validation of `source`'s variants, within `budget` seconds in all when given, read on `clock` (by
    /// default `root`'s).
    package init(
        source: String, options: [String: String], timeout: Double, segments: Int, root: Interrupter, pacer: Interrupter,
        budget: Double? = nil, clock: (any CheckClock)? = nil, bandwidthTolerance: Double? = BandwidthRule.tolerance
    ) {
        validation = VariantValidation(
            source: source, options: options, timeout: timeout, segments: segments, root: root, pacer: pacer,
            budget: budget, clock: clock ?? root.clock, bandwidthTolerance: bandwidthTolerance)
    }

    /// Whether the budget has run out.
    private var outOfTime: Bool { budget.isSpent }

    /// What the validation found: one check per variant, and warnings about the validation itself (the
    /// input is not an HLS master, the master lists more than `maxVariants`).
    package struct Outcome: Sendable {
        /// One entry per variant validated, in master order.
        package var checks: [VariantCheck] = []
        /// Sentences about what could not be validated at all.
        package var warnings: [String] = []
    }

    /// Validates every variant (blocks; run on the check's thread).
    package func run() -> Outcome {
        var result = Outcome()
        guard let location = Self.location(of: source) else {
            result.warnings.append("--all-variants: \(source) is not a local path or a network URL, so its variants were not validated.")
            return result
        }
        let master: HLSPlaylist
        let deadline = request()
        do {
            master = try HLSPlaylist.load(location: location, options: options, interrupter: deadline.interrupter)
            deadline.finish()
        } catch {
            result.warnings.append(
                "--all-variants: the master playlist \(source) could not be loaded for validation: \(describe(error, deadline))")
            return result
        }
        guard master.kind == .master else {
            result.warnings.append("--all-variants: \(source) is a media playlist, which has no variants to validate.")
            return result
        }
        if master.variants.count > Self.maxVariants {
            result.warnings.append(
                "--all-variants: \(source) lists \(master.variants.count) variants; only the first \(Self.maxVariants) were validated.")
        }
        let variants = Array(master.variants.prefix(Self.maxVariants))
        let work = Work(count: variants.count)
        let workers = (0..<min(Self.concurrency, variants.count)).map { worker in
            BlockingThread.start(name: "bufprobe variant \(worker)") {
                while !outOfTime, let index = work.next(), variants.indices.contains(index) {
                    let check = validate(index: index, variant: variants[index], master: location, budget: work)
                    // A fetch the budget cut short says nothing about the variant: it was not validated.
                    if outOfTime, check.problems.contains(where: { $0.kind == .playlistFailed || $0.kind == .segmentFailed }) {
                        continue
                    }
                    work.store(check, at: index)
                }
            }
        }
        for worker in workers { worker.join() }
        result.checks = work.checks
        let validated = Set(result.checks.map(\.index))
        let missed = variants.indices.filter { !validated.contains($0) }
        if !missed.isEmpty, budget.isBounded {
            result.warnings.append(
                "--all-variants: the validation's time budget ran out, so variant\(missed.count == 1 ? "" : "s") \(missed.map(String.init).joined(separator: ", ")) of \(source) \(missed.count == 1 ? "was" : "were") not validated.")
        }
        return result
    }

    /// Where the master is read from: the local path, or the network URL without FFmpeg's `hls+` prefix
    /// (`RequestPolicy.requested`);
    /// `nil` for standard input and FFmpeg's other local protocols.
    static func location(of source: String) -> String? {
        let kind = InputKind(source)
        if let path = kind.localPath { return path }
        guard kind.isNetwork else { return nil }
        return RequestPolicy.requested(source)
    }

    /// Cancels one request's interrupter once `seconds` have passed on its clock (the check's): a server that
    /// drips a segment a few bytes at a time never waits long enough for one read to time out, yet must not
    /// hold the check.
    final class RequestDeadline: Sendable {
        let interrupter: Interrupter
        private let finished = Atomic<Bool>(false)
        private let expired = Atomic<Bool>(false)

        init(_ interrupter: Interrupter, seconds: Double) {
            self.interrupter = interrupter
            interrupter.clock.schedule(at: interrupter.clock.now() + seconds) { [self] in
                guard !finished.load(ordering: .acquiring) else { return }
                expired.store(true, ordering: .releasing)
                interrupter.cancel()
            }
        }

        /// Marks the request done; whether the deadline had cancelled it first.
        @discardableResult
        func finish() -> Bool {
            finished.store(true, ordering: .releasing)
            return expired.load(ordering: .acquiring)
        }
    }

    /// What the workers share: the next variant to take, the results, and the bytes left to fetch.
    private final class Work: Sendable {
        private struct State {
            var next = 0
            var checks: [VariantCheck?]
            var bytesLeft = VariantProber.totalBytes
        }
        private let state: Mutex<State>

        init(count: Int) { state = Mutex(State(checks: Array(repeating: nil, count: count))) }

        /// The next variant index to validate, or `nil` when all are taken.
        func next() -> Int? {
            state.withLock { state in
                guard state.next < state.checks.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        /// Records a variant's result.
        func store(_ check: VariantCheck, at index: Int) {
            state.withLock { state in
                if state.checks.indices.contains(index) { state.checks[index] = check }
            }
        }

        /// The results, in master order.
        var checks: [VariantCheck] { state.withLock { $0.checks.compactMap { $0 } } }

        /// Takes `bytes` from the budget; `false` when too few are left.
        func reserve(_ bytes: Int64) -> Bool {
            state.withLock { state in
                guard state.bytesLeft >= bytes else { return false }
                state.bytesLeft -= bytes
                return true
            }
        }

        /// Gives back bytes reserved and not used.
        func release(_ bytes: Int64) { state.withLock { $0.bytesLeft += max(0, bytes) } }
    }

    /// A failure to fetch, as a clause.
    private struct Failure: Error {
        var clause: String
    }

    private func validate(index: Int, variant: HLSPlaylist.Variant, master: String, budget: Work) -> VariantCheck {
        let playlistURL = HLSPlaylist.resolve(variant.uri, against: master)
        let media: HLSPlaylist
        let deadline = request()
        do {
            media = try HLSPlaylist.load(location: playlistURL, options: options, interrupter: deadline.interrupter)
            deadline.finish()
        } catch {
            return VariantValidator.failed(
                index: index, variant: variant, kind: .playlistFailed,
                why: "has a media playlist that could not be loaded (\(playlistURL) \(describe(error, deadline)))")
        }
        guard media.kind == .media else {
            return VariantValidator.failed(
                index: index, variant: variant, kind: .playlistFailed, why: "points to \(playlistURL), a master playlist, not a media playlist")
        }
        guard let first = media.segments.first else {
            return VariantValidator.failed(index: index, variant: variant, kind: .playlistFailed, why: "has a media playlist that lists no segment")
        }
        let firstURL = HLSPlaylist.resolve(first.uri, against: playlistURL)
        var bytes: [UInt8] = []
        var segmentBytes: [UInt8] = []
        do throws(Failure) {
            if let map = first.map {
                let mapURL = HLSPlaylist.resolve(map.uri, against: playlistURL)
                do throws(Failure) {
                    bytes = try fetch(mapURL, range: map.byteRange, budget: budget)
                } catch {
                    throw Failure(clause: "has an init section (#EXT-X-MAP) that could not be fetched (\(mapURL) \(error.clause))")
                }
            }
            do throws(Failure) {
                segmentBytes = try fetch(firstURL, range: first.byteRange, budget: budget)
                bytes += segmentBytes
            } catch {
                throw Failure(clause: "has a first segment that could not be fetched (\(firstURL) \(error.clause))")
            }
        } catch {
            return VariantValidator.failed(index: index, variant: variant, kind: .segmentFailed, why: error.clause)
        }
        // The segment's own bytes: the init section is fetched once per variant, not per segment.
        let firstSize = VariantValidator.SegmentSize(bytes: Int64(segmentBytes.count), duration: first.duration)
        let streams: [VariantValidator.Stream]
        do {
            let name = String(firstURL.split(separator: "?").first?.split(separator: "/").last ?? "segment")
            // The bytes are in memory: the timeout bounds nothing that waits, cancellation still applies.
            let input = try MediaInput(
                bytes: bytes, name: name, interrupter: Interrupter(timeout: .bounded(seconds: timeout), parent: root))
            streams = input.streams
                .filter { ($0.type == .video && !$0.isAttachedPicture) || $0.type == .audio }
                .map(VariantValidator.Stream.init)
        } catch {
            return VariantValidator.failed(
                index: index, variant: variant, kind: .segmentFailed,
                why: "has a first segment that does not open as media (\(firstURL): \(error.message))", sizes: [firstSize])
        }
        guard !streams.isEmpty else {
            return VariantValidator.failed(
                index: index, variant: variant, kind: .segmentFailed,
                why: "has a first segment with no audio or video stream (\(firstURL))", sizes: [firstSize])
        }
        var sizes = [firstSize]
        var failures: [VariantCheck.Problem] = []
        for (position, segment) in media.segments.enumerated().dropFirst().prefix(max(0, segments - 1)) {
            if let range = segment.byteRange {
                sizes.append(VariantValidator.SegmentSize(bytes: range.length, duration: segment.duration))
                continue
            }
            let url = HLSPlaylist.resolve(segment.uri, against: playlistURL)
            let deadline = request()
            do {
                // Opened for its size only: the body is never read.
                let reader = try ResourceReader(url: url, options: options, interrupter: deadline.interrupter)
                deadline.finish()
                if let size = reader.size { sizes.append(VariantValidator.SegmentSize(bytes: size, duration: segment.duration)) }
            } catch {
                failures.append(VariantCheck.Problem(
                    kind: .segmentFailed,
                    message: "\(VariantValidator.name(index: index, uri: variant.uri)) has segment \(position) (\(url)) that \(describe(error, deadline))."))
            }
        }
        var check = VariantValidator.validate(
            index: index, variant: variant, streams: streams, sizes: sizes, tolerance: validation.bandwidthTolerance)
        check.problems += failures
        return check
    }

    /// The bytes of `url` (or its `range`), at most `segmentBytes`, counted against `budget`.
    private func fetch(
        _ url: String, range: HLSPlaylist.ByteRange?, budget: Work
    ) throws(Failure) -> [UInt8] {
        let deadline = request()
        defer { deadline.finish() }
        let reader: ResourceReader
        do {
            reader = try ResourceReader(url: url, options: options, interrupter: deadline.interrupter, offset: range?.offset ?? 0)
        } catch {
            throw Failure(clause: describe(error, deadline))
        }
        let announced = range?.length ?? reader.size
        if let announced, announced > Self.segmentBytes {
            throw Failure(clause: "is \(TextFormat.bytes(announced)), more than the \(TextFormat.bytes(Self.segmentBytes)) fetched per segment")
        }
        let reserved = announced ?? Self.segmentBytes
        guard budget.reserve(reserved) else {
            throw Failure(clause: "was not fetched: --all-variants fetches at most \(TextFormat.bytes(Self.totalBytes)) in all")
        }
        let read: Result<[UInt8], FFmpegError> = range.map { range in Result { () throws(FFmpegError) in try reader.read(count: range.length) } }
            ?? Result { () throws(FFmpegError) in try reader.readAll(limit: Self.segmentBytes) }
        switch read {
        case .success(let bytes):
            // Give back what a size-less response reserved and did not use.
            if announced == nil { budget.release(reserved - Int64(bytes.count)) }
            return bytes
        case .failure(let error):
            budget.release(reserved)
            if error.isInvalidData { throw Failure(clause: "is more than the \(TextFormat.bytes(Self.segmentBytes)) fetched per segment") }
            throw Failure(clause: describe(error, deadline))
        }
    }

    /// `describe(_:)`, or that the request used up `--timeout`.
    private func describe(_ error: any Error, _ deadline: RequestDeadline) -> String {
        deadline.finish() ? "did not arrive within \(TextFormat.seconds(timeout)) (--timeout)" : Self.describe(error)
    }

    /// A clause for why a resource failed: `answered HTTP 404`, `sent nothing within 5 s`, or FFmpeg's text.
    static func describe(_ error: any Error) -> String {
        if let error = error as? FFmpegError {
            if let status = error.httpStatus { return "answered HTTP \(status)" }
            if error.isTimedOut { return "sent nothing in time (half of --timeout)" }
            if error.code == -EACCES {
                return "was refused (see the warnings)"
            }
            if error.operation == "avio_read", error.isInvalidData {
                return "is larger than a playlist may be (\(TextFormat.bytes(ResourceLimits.playlistBytes)))"
            }
            return "could not be read (\(error.message))"
        }
        if let error = error as? HLSPlaylistError { return "is not a valid playlist: \(error.reason)\(error.line.map { " (line \($0))" } ?? "")" }
        return "could not be read (\(error))"
    }
}
