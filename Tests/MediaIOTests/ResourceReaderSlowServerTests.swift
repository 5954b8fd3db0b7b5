import Foundation
import MediaIO
import Testing
import TestSupport

/// `ResourceReader` on a slow but steady server: "sent nothing" means nothing came within half of the
/// timeout, never that a 64 KiB chunk took longer than that to fill. nginx sends 20,000 bytes a second in
/// bursts, one a second; 80 kB take about 4 s, while a 64 KiB chunk fills in 3.3 s, more than the half-timeout of
/// 1.5 s, which every burst comes well within.
@Suite("ResourceReader: a slow server that keeps sending is read whole")
struct ResourceReaderSlowServerTests {
    @Test func slowSteadyBodyIsReadWholeWithinAShortTimeout() throws {
        let nginx = try NginxServer(rates: [20_000])
        let url = nginx.url("sine.mp3", bytesPerSecond: 20_000)
        let interrupter = Interrupter(timeout: .seconds(3), input: url)
        let reader = try ResourceReader(url: url, interrupter: interrupter)
        let bytes = try reader.readAll(limit: 1 << 20)
        let expected = try Data(contentsOf: URL(fileURLWithPath: BufprobeProcess.sample("sine.mp3")))
        #expect(bytes.count == expected.count)
        #expect(interrupter.skipped.isEmpty, "\(interrupter.skipped)")
    }
}
