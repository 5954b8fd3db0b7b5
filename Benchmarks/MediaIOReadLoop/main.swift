// mediaio-read-loop FILE: MediaIO's packet loop and nothing else (no analysis, no Foundation, no
// command-line parsing), the same work as Benchmarks/read-loop.c. probe-bench.sh times it beside the C
// loop and `bufprobe probe`, so the cost of the Swift layer and the cost of probe's analysis show apart.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MediaIO

guard CommandLine.arguments.count == 2 else {
    print("usage: mediaio-read-loop FILE")
    exit(64)
}
do {
    let input = try MediaInput(url: CommandLine.arguments[1])
    var packets = [Int](repeating: 0, count: input.streams.count)
    var bytes = 0
    while let packet = try input.readPacket() {
        packets[packet.stream] += 1
        bytes += packet.size
    }
    print("packets \(packets.map(String.init).joined(separator: " ")) bytes \(bytes)")
} catch {
    print("error: \(error)")
    exit(2)
}
