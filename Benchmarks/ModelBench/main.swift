// bufprobe-bench: benchmarks of the PlaybackModel. Not tests: timings are printed, never asserted.
//
//   bufprobe-bench [model] [--packets N]   1,000,000 in-order packet ranges by default
//
// `model` inserts N in-order 20 ms packet ranges (TimeRanges, then LoadedRangeTracker) and drives a Player
// through them as they arrive, then prints the times and the peak RSS (VmHWM from /proc/self/status). It
// runs N/10 first and N second: if the peak RSS does not grow between the two, the model's memory does
// not depend on the packet count. The reference is a plain Array of the same ranges (what an O(packets)
// model would keep), measured in the same run.
import Foundation
import PlaybackModel

let packetDuration = 0.02

/// A kernel memory figure from /proc/self/status in KiB, or -1 where there is none (macOS).
func procStatus(_ key: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.dropFirst(key.count + 1).filter(\.isNumber)) ?? -1
    }
    return -1
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func measure<T>(_ body: () -> T) -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = body()
    return (result, seconds(clock.now - start))
}

struct ModelResult {
    var rangesTime: Double
    var trackerTime: Double
    var playerTime: Double
    var checksum: Double
}

func runModel(packets: Int) -> ModelResult {
    let (ranges, rangesTime) = measure {
        var ranges = TimeRanges()
        for i in 0..<packets {
            let start = Double(i) * packetDuration
            ranges.insert(start: start, end: start + packetDuration)
        }
        return ranges
    }
    let (tracker, trackerTime) = measure {
        var tracker = LoadedRangeTracker(playableStreams: [0])
        for i in 0..<packets {
            tracker.add(
                MediaPacket(
                    stream: 0, pts: Double(i) * packetDuration, dts: nil, duration: packetDuration, size: 400,
                    position: nil, isKeyframe: i % 50 == 0))
        }
        return tracker
    }
    // Packets arrive at playback speed with a 2 s lead; the player starts, plays through every packet with
    // its 0.5 s periodic observer on, and ends. Events are drained as a live line would.
    let (player, playerTime) = measure {
        let total = Double(packets) * packetDuration
        var player = Player(duration: .finite(total), now: 0)
        var actionCount = 0
        for i in 0..<packets {
            let start = Double(i) * packetDuration
            let now = Swift.max(0, start - 2)
            actionCount += player.loaded(TimeRange(start: start, end: start + packetDuration), now: now).count
            if i % 1024 == 0 { _ = player.takeEvents() }
        }
        actionCount += player.endOfStream(now: total).count
        actionCount += player.advance(to: total + 10).count
        _ = player.takeEvents()
        return (player, actionCount)
    }
    return ModelResult(
        rangesTime: rangesTime, trackerTime: trackerTime, playerTime: playerTime,
        checksum: Double(ranges.count) + (tracker.playable.end ?? 0) + player.0.item.currentTime
            + Double(player.1) + (player.0.report.ended ? 1 : 0))
}

func runReference(packets: Int) -> (Int, Double) {
    measure {
        var array: [TimeRange] = []
        for i in 0..<packets {
            let start = Double(i) * packetDuration
            array.append(TimeRange(start: start, end: start + packetDuration))
        }
        return array.count
    }
}

func model(packets: Int) {
    print("model benchmark: \(packets) in-order packet ranges of \(packetDuration) s (\(Double(packets) * packetDuration) s of media)")
    print(
        "  " + "packets".padding(toLength: 10, withPad: " ", startingAt: 0)
            + ["TimeRanges", "tracker", "player"].map { String(repeating: " ", count: 13 - $0.count) + $0 }.joined()
            + "          total" + "        VmHWM")
    var checksum = 0.0
    var hwm: [Int] = []
    var totals: [Double] = []
    for count in [Swift.max(1, packets / 10), packets] {
        let result = runModel(packets: count)
        checksum += result.checksum
        let total = result.rangesTime + result.trackerTime + result.playerTime
        totals.append(total)
        hwm.append(procStatus("VmHWM"))
        print(
            String(
                format: "  %-10d %9.1f ms %9.1f ms %9.1f ms %11.1f ms %9d kB", count, result.rangesTime * 1000,
                result.trackerTime * 1000, result.playerTime * 1000, total * 1000, hwm.last!))
    }
    let (kept, referenceTime) = runReference(packets: packets)
    let referenceHWM = procStatus("VmHWM")
    print(
        String(
            format: "  reference: Array of %d ranges %.1f ms, VmHWM %d kB (+%d kB over the model's)", kept,
            referenceTime * 1000, referenceHWM, referenceHWM - hwm.last!))
    print(String(format: "  model total / reference append: %.2fx", totals.last! / referenceTime))
    print("  peak RSS growth from \(packets / 10) to \(packets) packets: \(hwm[1] - hwm[0]) kB")
    print("  checksum \(checksum)")
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "model" { arguments.removeFirst() }
var packets = 1_000_000
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--packets":
        guard let value = arguments.first.flatMap({ Int($0) }), value > 0 else {
            FileHandle.standardError.write(Data("bufprobe-bench: --packets needs a positive whole number.\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        packets = value
    case "-h", "--help":
        print("usage: bufprobe-bench [model] [--packets N]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("bufprobe-bench: unknown argument \(argument); see --help.\n".utf8))
        exit(2)
    }
}
model(packets: packets)
