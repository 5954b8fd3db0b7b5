import Foundation
import InputReading
import MediaIO

/// Reads one resource for the validation: a playlist's text or a segment's bytes, from a local path or
/// through FFmpeg's protocols (`ResourceReader`, with an `Interrupter` per request: the input's protocol
/// whitelist, `--timeout`, cancellation), and opens a segment's bytes as media to measure its packets.
struct SegmentReader: Sendable {
    /// The input as given: names the protocol whitelist of every request made for it.
    let source: String
    /// Options, timeout and bounds.
    let settings: ValidationSettings
    /// Cancelled with the run (Ctrl-C).
    let root: Interrupter
    /// When `--max-time` ends: a request still running then is cut (a server that drips bytes never trips
    /// `--timeout`, yet must not hold the run).
    let deadline: ContinuousClock.Instant

    /// A failure to read, as a clause: "answered HTTP 404".
    struct Failure: Error {
        var clause: String
        /// Cut by the run's end (`--max-time`, Ctrl-C), not by the server: the resource was not read.
        var cut = false
    }

    /// The bytes at `location` (or its `range`), at most `limit`.
    func bytes(_ location: String, range: HLSPlaylist.ByteRange? = nil, limit: Int64) throws(Failure) -> [UInt8] {
        if let range, range.length > limit { throw Failure(clause: "is \(range.length) bytes, more than the \(limit) read per resource") }
        guard location.contains("://") else { return try local(location, range: range, limit: limit) }
        // The run's request policy (`--deny-private`, serve's allow-lists) holds for every request and redirect.
        let interrupter = Interrupter(timeout: .seconds(settings.timeout), parent: root, input: source, policy: root.policy)
        let cut = DispatchWorkItem { interrupter.cancel() }
        let left = deadline - ContinuousClock.now
        DispatchQueue.global().asyncAfter(
            deadline: .now() + max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18), execute: cut)
        defer { cut.cancel() }
        do {
            let reader = try ResourceReader(url: location, options: settings.options, interrupter: interrupter, offset: range?.offset ?? 0)
            if let range { return try reader.read(count: range.length) }
            return try reader.readAll(limit: limit)
        } catch {
            if let refused = interrupter.skipped.last(where: { $0.kind == .refused }) {
                let target = refused.url == location ? "it" : refused.url
                throw Failure(clause: "was refused: \(target) \(refused.why)")
            }
            // A run cancelled (Ctrl-C) may surface as a timeout of the request's own interrupter: the root says.
            throw Failure(clause: Self.describe(error, limit: limit), cut: error.isInterrupted || root.reason != nil)
        }
    }

    /// A local file's bytes (or its `range`), at most `limit`.
    private func local(_ path: String, range: HLSPlaylist.ByteRange?, limit: Int64) throws(Failure) -> [UInt8] {
        // A device or a FIFO a hostile playlist names (/dev/zero, a pipe no one writes) is not read: it may never end.
        guard let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
            type == .typeRegular
        else {
            throw Failure(clause: "cannot be read (it does not exist, or is not a regular file)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(clause: "cannot be read (check the path and permissions)") }
        defer { try? handle.close() }
        do {
            if let range { try handle.seek(toOffset: UInt64(range.offset)) }
            let data = try handle.read(upToCount: Int(range?.length ?? (limit + 1))) ?? Data()
            if range == nil, data.count > limit { throw Failure(clause: "is more than the \(limit) bytes read per resource") }
            return Array(data)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(clause: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// The type of the box `bytes` start with: a size of 0, 1 or at least 8, then four letters or digits.
    static func firstBox(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 8 else { return nil }
        let size = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let type = bytes[4..<8]
        guard size == 0 || size == 1 || size >= 8,
            type.allSatisfy({ (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) })
        else { return nil }
        return String(decoding: type, as: UTF8.self)
    }

    /// The clause for a failed request.
    static func describe(_ error: FFmpegError, limit: Int64) -> String {
        if let status = error.httpStatus { return "answered HTTP \(status)" }
        if error.isTimedOut { return "sent nothing in time (--timeout)" }
        if error.isInterrupted { return "was cut short (--max-time ended, or the run was interrupted)" }
        if error.isInvalidData { return "is more than the \(limit) bytes read per resource" }
        if error.code == -EACCES { return "was refused (a protocol the input may not lead to)" }
        return "could not be read (\(error.message))"
    }

    /// Segment `index` of a playlist at `playlistURI`: its bytes (with `mapBytes` before them when it has an
    /// `#EXT-X-MAP`) opened as media and every packet read; `nil` when the run's end cut it (not read).
    func read(_ segment: HLSPlaylist.Segment, index: Int, playlistURI: String, mapBytes: [UInt8]) -> SegmentRead? {
        read(
            URLReference.resolve(segment.uri, against: playlistURI), range: segment.byteRange, index: index,
            declaredDuration: segment.duration, mapBytes: mapBytes)
    }

    /// The segment at `uri` (or its `range`), `index` of its playlist or representation, declared to last
    /// `declaredDuration`: its bytes (after `mapBytes`, its initialization) opened as media and every packet
    /// read; `nil` when the run's end cut it (not read).
    func read(_ uri: String, range: HLSPlaylist.ByteRange?, index: Int, declaredDuration: Double, mapBytes: [UInt8]) -> SegmentRead? {
        var read = SegmentRead(index: index, uri: uri, declaredDuration: declaredDuration)
        let body: [UInt8]
        do throws(Failure) {
            body = try bytes(uri, range: range, limit: settings.segmentBytes)
        } catch {
            if error.cut { return nil }
            read.error = error.clause
            return read
        }
        read.bytes = Int64(body.count)
        read.firstBox = Self.firstBox(body)
        let name = String(uri.split(separator: "?").first?.split(separator: "/").last ?? "segment")
        do {
            let input = try MediaInput(
                bytes: mapBytes + body, name: name, interrupter: Interrupter(timeout: .seconds(settings.timeout), parent: root))
            read.streams = input.streams
                .filter { ($0.type == .video && !$0.isAttachedPicture) || $0.type == .audio }
                .map(CodecComparison.Stream.init)
            let video = input.bestVideoStream
            let timed = video ?? input.bestAudioStream
            var start = Double.infinity
            var end = -Double.infinity
            var frame = 0.0
            var frames = 0
            var curve = LeakyBucket.Curve()
            var payload: Int64 = 0
            var needed: [(time: Double, bytes: Int64)] = []
            while let packet = try input.readPacket() {
                payload += Int64(packet.size)
                if let time = packet.dts ?? packet.pts { needed.append((time, payload)) }
                if packet.stream == video {
                    if read.startsWithKeyframe == nil { read.startsWithKeyframe = packet.isKeyframe }
                    frames += 1
                }
                guard packet.stream == timed, let pts = packet.pts else { continue }
                let duration = packet.duration ?? 0
                start = min(start, pts)
                end = max(end, pts + duration)
                frame = max(frame, duration)
            }
            // The boxes around the samples (moof, mdat headers, TS packet headers) arrive with the first ones.
            let overhead = max(Int64(body.count) - payload, 0)
            for point in needed { curve.add(time: point.time, bytes: point.bytes + overhead) }
            read.arrivals = curve.points
            if video != nil { read.videoFrames = frames }
            if end > start, end.isFinite, start.isFinite {
                read.mediaDuration = end - start
                read.frameDuration = frame
                read.earliestPresentation = start
            }
        } catch {
            read.error = "does not open as media (\(error.message))"
        }
        return read
    }
}
