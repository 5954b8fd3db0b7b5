import BufprobeOutput
import Foundation
public import MediaIO
import Synchronization

/// `validate`'s driver, the one part that reads: the input playlist, every media playlist it names
/// (variants, renditions, I-frame playlists) and every segment (but the I-frame playlists' byte ranges),
/// with `settings.concurrency` requests at once until `maxBytes` or `maxTime` is spent; then the pure
/// rules (`HLSRules`) judge what was read. Blocks: call it off the main thread.
public struct StreamValidation: Sendable {
    /// The input: a local path or an http(s) URL of a multivariant or media playlist.
    public let source: String
    /// Bounds, options and ignored rules.
    public let settings: ValidationSettings
    /// Cancelled with the run (Ctrl-C): every request stops.
    public let root: Interrupter

    /// Whether `run()` first sends FFmpeg's log through bufprobe's sink (nothing on stderr), as the other
    /// engines' library faces do; the command, which installs its own (`--verbose`), says no.
    let installsLogSink: Bool

    /// A validation of `source`.
    public init(source: String, settings: ValidationSettings = ValidationSettings(), root: Interrupter = Interrupter(timeout: nil)) {
        self.init(source: source, settings: settings, root: root, installsLogSink: true)
    }

    /// A validation of `source` that leaves FFmpeg's log as the caller set it (`installsLogSink` false).
    package init(source: String, settings: ValidationSettings, root: Interrupter, installsLogSink: Bool) {
        self.source = source
        self.settings = settings
        self.root = root
        self.installsLogSink = installsLogSink
    }

    /// Reads and judges the stream.
    /// - Throws: `ValidationFailure` when the input cannot be read or is not an HLS playlist.
    public func run() throws(ValidationFailure) -> ValidationReport {
        if installsLogSink { LibrarySetup.once() }
        let started = ContinuousClock.now
        let read = try self.read()
        let findings = HLSRules.findings(read).filter { !settings.ignored.contains($0.rule) }
        return ValidationReport(read: read, findings: findings, ignored: settings.ignored, seconds: Self.seconds(since: started))
    }

    /// Everything read of the stream (no rule applied).
    public func read() throws(ValidationFailure) -> StreamRead {
        let deadline = ContinuousClock.now + .seconds(settings.maxTime)
        let reader = SegmentReader(source: source, settings: settings, root: root, deadline: deadline)
        let location = source.lowercased().hasPrefix("file://") ? String(source.dropFirst("file://".count)) : source
        let (top, text) = try loadInput(location, reader: reader)
        var read = StreamRead(source: source)
        if top.playlist?.kind == .master, let master = top.playlist {
            read.multivariant = top
            var byURI: [String: Int] = [:]
            func add(_ uri: String, role: PlaylistRead.Role) -> Int {
                let resolved = URLReference.resolve(uri, against: location)
                if let known = byURI[resolved] { return known }
                read.playlists.append(loadMedia(resolved, role: role, reader: reader))
                byURI[resolved] = read.playlists.count - 1
                return read.playlists.count - 1
            }
            let references = PlaylistFeatures(text: text).references
            var audio: [String: [Int]] = [:]
            if master.variants.count > Self.maxVariants {
                read.notRead.append("\(source) lists \(master.variants.count) variants; only the first \(Self.maxVariants) were read.")
            }
            for (number, variant) in master.variants.prefix(Self.maxVariants).enumerated() {
                read.variants.append(StreamRead.Variant(declared: variant, number: number + 1, playlist: add(variant.uri, role: .variant)))
            }
            for reference in references {
                let index = add(reference.uri, role: reference.type == "I-FRAME" ? .iFrame : .rendition)
                if reference.type == "AUDIO", let group = reference.groupID { audio[group, default: []].append(index) }
            }
            for position in read.variants.indices {
                if let group = read.variants[position].declared.audioGroup { read.variants[position].audio = audio[group] ?? [] }
            }
        } else {
            read.playlists = [top]
        }
        readSegments(&read, reader: reader, deadline: deadline)
        return read
    }

    /// The input playlist and its text; a failure to read or parse it is the run's failure.
    private func loadInput(_ location: String, reader: SegmentReader) throws(ValidationFailure) -> (PlaylistRead, String) {
        let bytes: [UInt8]
        do throws(SegmentReader.Failure) {
            bytes = try reader.bytes(location, limit: ResourceLimits.playlistBytes)
        } catch {
            throw ValidationFailure("\(source) \(error.clause).")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let playlist = try HLSPlaylist.parse(text)
            let role: PlaylistRead.Role = playlist.kind == .master ? .multivariant : .media
            return (PlaylistRead(uri: location, role: role, playlist: playlist, features: PlaylistFeatures(text: text)), text)
        } catch {
            throw ValidationFailure("\(source) is not an HLS playlist: it \(error.reason)\(error.line.map { " (line \($0))" } ?? "").")
        }
    }

    /// A media playlist the multivariant one names; a failure is kept on it (a finding of bufprobe:read).
    private func loadMedia(_ uri: String, role: PlaylistRead.Role, reader: SegmentReader) -> PlaylistRead {
        let bytes: [UInt8]
        do throws(SegmentReader.Failure) {
            bytes = try reader.bytes(uri, limit: ResourceLimits.playlistBytes)
        } catch {
            return PlaylistRead(uri: uri, role: role, playlist: nil, features: PlaylistFeatures(), error: error.clause)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let playlist = try HLSPlaylist.parse(text)
            guard playlist.kind == .media else {
                return PlaylistRead(uri: uri, role: role, playlist: nil, features: PlaylistFeatures(), error: "is a multivariant playlist, not a media playlist")
            }
            return PlaylistRead(uri: uri, role: role, playlist: playlist, features: PlaylistFeatures(text: text))
        } catch {
            return PlaylistRead(
                uri: uri, role: role, playlist: nil, features: PlaylistFeatures(),
                error: "is not a valid playlist: it \(error.reason)\(error.line.map { " (line \($0))" } ?? "")")
        }
    }

    /// Reads the segments of every media playlist but the I-frame ones, the first segments of every
    /// playlist before the second ones (a bound cuts every playlist at about the same place), with
    /// `concurrency` workers; what the bounds left is named in `read.notRead`.
    private func readSegments(_ read: inout StreamRead, reader: SegmentReader, deadline: ContinuousClock.Instant) {
        var planned: [(playlist: Int, segment: Int)] = []
        let playlists = read.playlists
        let longest = playlists.map(\.segmentsListed).max() ?? 0
        for segment in 0..<longest {
            for (index, playlist) in playlists.enumerated() where playlist.role != .iFrame && segment < playlist.segmentsListed {
                planned.append((index, segment))
            }
        }
        let tasks = planned
        let work = SegmentWork(tasks: tasks.count, maxBytes: settings.maxBytes, deadline: deadline)
        let workers = (0..<max(1, min(settings.concurrency, tasks.count))).map { worker in
            BlockingThread.start(name: "bufprobe validate \(worker)") {
                while let position = work.next(cancelled: root.reason != nil) {
                    let task = tasks[position]
                    let playlist = playlists[task.playlist]
                    guard let media = playlist.playlist else { continue }
                    let segment = media.segments[task.segment]
                    var map: [UInt8] = []
                    if let section = segment.map {
                        let uri = URLReference.resolve(section.uri, against: playlist.uri)
                        do throws(SegmentReader.Failure) {
                            map = try work.map(uri, range: section.byteRange) { () throws(SegmentReader.Failure) in
                                try reader.bytes(uri, range: section.byteRange, limit: settings.segmentBytes)
                            }
                        } catch {
                            if error.cut { continue }
                            var failed = SegmentRead(index: task.segment, uri: URLReference.resolve(segment.uri, against: playlist.uri), declaredDuration: segment.duration)
                            failed.error = "has an EXT-X-MAP (\(uri)) that \(error.clause)"
                            work.store(failed, at: position)
                            continue
                        }
                    }
                    guard let result = reader.read(segment, index: task.segment, playlistURI: playlist.uri, mapBytes: map) else { continue }
                    work.spend(result.bytes ?? 0)
                    work.store(result, at: position)
                }
            }
        }
        for worker in workers { worker.join() }
        let results = work.results
        for (position, task) in tasks.enumerated() {
            if let result = results[position] { read.playlists[task.playlist].segments.append(result) }
        }
        for index in read.playlists.indices {
            read.playlists[index].segments.sort { $0.index < $1.index }
            let playlist = read.playlists[index]
            guard playlist.role != .iFrame, playlist.segments.count < playlist.segmentsListed else { continue }
            let why = root.reason != nil
                ? "the run was interrupted"
                : work.stopReason ?? (ContinuousClock.now >= deadline ? "--max-time was reached" : "a bound was reached")
            let missing = Self.missingRanges(read: playlist.segments.map(\.index), count: playlist.segmentsListed)
            read.notRead.append(
                "\(playlist.uri): \(playlist.segments.count) of \(playlist.segmentsListed) segments were read; not read (from 1): \(missing); \(why).")
        }
        for playlist in read.playlists where playlist.playlist?.kind == .media && playlist.playlist?.hasEndList == false {
            read.notRead.append("\(playlist.uri) has no EXT-X-ENDLIST (live or still growing): it was read once, not watched, and the VOD bit-rate rules were not applied.")
        }
        if read.playlists.contains(where: { $0.role == .iFrame }) {
            read.notRead.append("I-frame playlists' byte ranges are not read as media yet: their playlists are judged, not their frames.")
        }
    }

    /// The most variants read of a multivariant playlist (with at most `HLSPlaylist.maxReferences`
    /// renditions and I-frame playlists besides): a hostile one listing thousands is not all requested.
    public static let maxVariants = 256

    /// The positions of `0..<count` missing from `read` (sorted), as ranges counted from 1: "3, 5-8, 10";
    /// after 10 ranges the rest is counted, not listed.
    static func missingRanges(read: [Int], count: Int) -> String {
        var parts: [String] = []
        var more = 0
        var next = 0
        for position in read + [count] where position >= next {
            if position > next {
                if parts.count < 10 {
                    parts.append(position - 1 == next ? "\(next + 1)" : "\(next + 1)-\(position)")
                } else {
                    more += 1
                }
            }
            next = position + 1
        }
        return parts.joined(separator: ", ") + (more > 0 ? " and \(more) more range\(more == 1 ? "" : "s")" : "")
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
