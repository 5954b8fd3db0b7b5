import Foundation
import MediaIO

/// One segment for `StreamValidation`'s workers to read: its playlist or representation (`group`), its
/// position there, where it is, its declared duration, and the initialization section read before it.
struct SegmentTask: Sendable {
    /// The index of its playlist (HLS) or representation (DASH) in what was read.
    var group: Int
    /// Its position in its playlist or representation, from 0.
    var index: Int
    /// Where it is (resolved).
    var uri: String
    /// Its byte range, when only part of `uri` is the segment.
    var range: HLSPlaylist.ByteRange?
    /// Its declared duration, seconds.
    var duration: Double
    /// Its initialization section (`#EXT-X-MAP`, a DASH initialization segment): where, which bytes, and
    /// what a failure calls it ("an EXT-X-MAP").
    var map: (uri: String, range: HLSPlaylist.ByteRange?, name: String)?
}

extension StreamValidation {
    /// Reads `tasks` with `settings.concurrency` workers until a bound (bytes, time, cancellation) stops
    /// them: each result at its task's position (`nil`: not read), and why the reading stopped early.
    func readAll(_ tasks: [SegmentTask], reader: SegmentReader, deadline: ContinuousClock.Instant) -> ([SegmentRead?], String?) {
        let work = SegmentWork(tasks: tasks.count, maxBytes: settings.maxBytes, deadline: deadline)
        let workers = (0..<max(1, min(settings.concurrency, tasks.count))).map { worker in
            BlockingThread.start(name: "bufprobe validate \(worker)") {
                while let position = work.next(cancelled: root.reason != nil) {
                    let task = tasks[position]
                    var map: [UInt8] = []
                    if let section = task.map {
                        do throws(SegmentReader.Failure) {
                            map = try work.map(section.uri, range: section.range) { () throws(SegmentReader.Failure) in
                                try reader.bytes(section.uri, range: section.range, limit: settings.segmentBytes)
                            }
                        } catch {
                            if error.cut { continue }
                            var failed = SegmentRead(index: task.index, uri: task.uri, declaredDuration: task.duration)
                            failed.error = "has \(section.name) (\(section.uri)) that \(error.clause)"
                            work.store(failed, at: position)
                            continue
                        }
                    }
                    guard let result = reader.read(task.uri, range: task.range, index: task.index, declaredDuration: task.duration, mapBytes: map)
                    else { continue }
                    work.spend(result.bytes ?? 0)
                    work.store(result, at: position)
                }
            }
        }
        for worker in workers { worker.join() }
        return (work.results, work.stopReason)
    }

    /// Why segments were left unread, in words.
    func stopWords(_ stopReason: String?, deadline: ContinuousClock.Instant) -> String {
        root.reason != nil
            ? "the run was interrupted"
            : stopReason ?? (ContinuousClock.now >= deadline ? "--max-time was reached" : "a bound was reached")
    }
}
