@testable import CheckEngine
import PlaybackModel
import Testing

/// `CheckMachine` in virtual time: packets arrive at given times, the loop does what the machine says
/// (read, wait, stop), and every figure is exact. The source never delivers a packet before the machine
/// asks for it: a packet available at `t` arrives at `max(t, the time of the read)`.
struct VirtualCheck {
    var opened: CheckMachine.Opened
    var openedAt = 0.0
    var policy = BufferPolicy()
    /// Packet k covers `[k * step, (k + 1) * step)` of stream 0 and is available at `arrivals[k]`.
    var arrivals: [Double]
    var step = 0.5
    /// How the input ends after the last packet, and when (at least when the last read asked).
    var end: CheckMachine.End = .endOfInput
    var endAt: Double?

    struct Run {
        var report: QoEReport
        var session: PlaybackSession
        var waits: [(from: Double, until: Double)] = []
        var readTimes: [Double] = []
        var stoppedAt = 0.0
        var sampleOver = false
    }

    func run() -> Run? {
        var machine = CheckMachine(policy: policy)
        var now = openedAt
        var action = machine.opened(opened, now: now)
        var next = 0
        var waits: [(from: Double, until: Double)] = []
        var reads: [Double] = []
        var ending = end
        var sampleOver = false
        loop: while true {
            switch action {
            case .read:
                guard next < arrivals.count else {
                    now = max(now, endAt ?? now)
                    break loop
                }
                now = max(now, arrivals[next])
                reads.append(now)
                let packet = MediaPacket(
                    stream: 0, pts: Double(next) * step, dts: Double(next) * step, duration: step, size: 1000,
                    position: Int64(next) * 1000, isKeyframe: true)
                next += 1
                action = machine.received(
                    packet, bytesReceived: Int64(next) * 1000, bytesDelivered: Int64(next) * 1000, now: now)
            case .wait(let until):
                #expect(until > now, "a wait ends after it begins")
                #expect(until - now <= CheckMachine.longestWait + 1e-12)
                waits.append((now, until))
                now = until
                action = machine.advance(to: now)
            case .sampleOver:
                ending = .sampled
                sampleOver = true
                break loop
            }
        }
        guard let session = machine.finish(ending, now: now) else { return nil }
        return Run(report: session.report, session: session, waits: waits, readTimes: reads, stoppedAt: now, sampleOver: sampleOver)
    }
}

@Suite("check's machine in virtual time")
struct CheckMachineTests {
    static func vod(_ seconds: Double, sampleLimit: Double? = nil) -> CheckMachine.Opened {
        CheckMachine.Opened(playableStreams: [0], duration: .finite(seconds), mediaStart: 0, sampleLimit: sampleLimit)
    }

    @Test("startup: opening counts, and playback starts when the start threshold (1 s) has arrived")
    func startup() throws {
        // Opened at 0.3 s; a 0.5 s packet every 0.25 s from 0.3 s: 1 s is buffered at 0.55 s.
        let check = VirtualCheck(opened: Self.vod(4), openedAt: 0.3, arrivals: (0..<8).map { 0.3 + 0.25 * Double($0) })
        let run = try #require(check.run())
        #expect(run.report.started)
        #expect(run.report.startupDelay == 0.55)
        #expect(run.report.stallCount == 0)
        // 4 s of media from 0.55 s: the end of a VOD is played out on the player's own deadlines.
        #expect(run.report.ended)
        #expect(run.stoppedAt == 0.3 + 0.25 * 7)
        #expect(run.report.elapsed == 4.55)
        #expect(run.report.played == 4)
    }

    @Test("a stall begins when the buffer runs dry and ends when the resume threshold (2 s) is back")
    func stallAndResume() throws {
        // 2 s at once at 0; then nothing until 5 s, when 2 s more arrive; the media is 4 s long.
        let arrivals = [0, 0, 0, 0, 5, 5, 5, 5.0]
        let run = try #require(VirtualCheck(opened: Self.vod(4), arrivals: arrivals).run())
        #expect(run.report.startupDelay == 0)
        #expect(run.report.stallCount == 1)
        let stall = try #require(run.report.stalls.first)
        #expect(stall.position == 2)
        #expect(stall.start == 2)
        #expect(stall.duration == 3)
        #expect(run.report.stallTime == 3)
        #expect(run.report.ended)
        #expect(run.report.elapsed == 7)
        #expect(run.report.played == 4)
    }

    @Test("a resume needs the resume threshold: 1.5 s back is not enough, 2 s is")
    func resumeThreshold() throws {
        // 1 s at 0 (starts at 0, dries at 1); 1.5 s at 3; 0.5 s more at 4.
        let arrivals = [0, 0, 3, 3, 3, 4.0]
        let run = try #require(VirtualCheck(opened: Self.vod(3), arrivals: arrivals).run())
        let stall = try #require(run.report.stalls.first)
        #expect(stall.start == 1)
        #expect(stall.duration == 3)  // resumes at 4 s, when the buffer holds 2 s
        #expect(run.report.elapsed == 6)
    }

    @Test("the forward-buffer target: the machine waits instead of reading, never longer than 1 s at a time")
    func forwardTarget() throws {
        // Everything is available at once; a 4 s forward target keeps the reads to what the player wants.
        var check = VirtualCheck(opened: Self.vod(10), arrivals: Array(repeating: 0, count: 20))
        check.policy = BufferPolicy(forwardTarget: 4)
        let run = try #require(check.run())
        #expect(!run.waits.isEmpty)
        #expect(run.report.stallCount == 0)
        #expect(run.report.ended)
        #expect(run.report.elapsed == 10)
        // No read ever takes the buffer past the target plus one packet.
        for (index, time) in run.readTimes.enumerated() {
            let bufferedBefore = Double(index) * 0.5 - max(0, time)
            #expect(bufferedBefore < 4 + 1e-9, "read \(index) at \(time) with \(bufferedBefore) s ahead")
        }
    }

    @Test("the end of a live sample: receiving stops at the sample limit with what was played by then")
    func liveSample() throws {
        // A live input produced in real time: packet k (0.5 s) is complete at 0.5 (k + 1).
        let live = CheckMachine.Opened(playableStreams: [0], duration: .unbounded, mediaStart: 0, sampleLimit: 3)
        let run = try #require(VirtualCheck(opened: live, arrivals: (0..<40).map { 0.5 * Double($0 + 1) }).run())
        #expect(run.sampleOver)
        #expect(run.stoppedAt == 3)
        #expect(run.report.startupDelay == 1)
        #expect(run.report.played == 2)
        #expect(run.report.stallCount == 0)
        #expect(!run.report.ended)
    }

    @Test("a sample limit ends a wait at the limit")
    func sampleLimitEndsAWait() throws {
        // Everything at once with a 2 s target: the machine waits, and the limit (2.5 s) cuts a wait short.
        var check = VirtualCheck(opened: Self.vod(10, sampleLimit: 2.5), arrivals: Array(repeating: 0, count: 20))
        check.policy = BufferPolicy(forwardTarget: 2)
        let run = try #require(check.run())
        #expect(run.sampleOver)
        #expect(run.stoppedAt == 2.5)
        #expect(run.waits.last?.until == 2.5)
        #expect(run.report.played == 2.5)
    }

    @Test("a timeout fails the player at the time it happened, with the stall it was in")
    func timeout() throws {
        // 2 s arrive at 0.5 s; the next read times out 10 s later.
        var check = VirtualCheck(opened: Self.vod(10), arrivals: [0.5, 0.5, 0.5, 0.5])
        check.end = .failed("x timed out after 10 s without data.")
        check.endAt = 10.5
        let run = try #require(check.run())
        #expect(run.report.startupDelay == 0.5)
        #expect(run.report.failure == "x timed out after 10 s without data.")
        let stall = try #require(run.report.stalls.first)
        #expect(stall.start == 2.5)
        #expect(stall.position == 2)
        #expect(run.report.stallTime == 8)
        #expect(run.report.elapsed == 10.5)
    }

    @Test("a variant that fails mid-stream fails the player there; nothing is played after")
    func variantFailure() throws {
        var check = VirtualCheck(opened: Self.vod(10), arrivals: [0, 0, 0, 0, 0, 0])
        check.end = .failed("x: variant 1 answered HTTP 404 for a segment.")
        check.endAt = 1.25
        let run = try #require(check.run())
        #expect(run.report.failure == "x: variant 1 answered HTTP 404 for a segment.")
        #expect(run.report.played == 1.25)
        #expect(run.report.stallCount == 0)
        #expect(!run.report.ended)
    }

    @Test("before the input opened there is nothing to finish, and the machine asks to read")
    func beforeOpening() {
        var machine = CheckMachine(policy: BufferPolicy())
        #expect(machine.next(now: 5) == .read)
        #expect(machine.session == nil)
        let session = machine.finish(.interrupted, now: 5)
        #expect(session == nil)
    }

    @Test("an interruption stops the player where it was, and finishing twice changes nothing")
    func interruption() {
        var machine = CheckMachine(policy: BufferPolicy())
        _ = machine.opened(Self.vod(10), now: 0)
        for k in 0..<4 {
            let packet = MediaPacket(
                stream: 0, pts: 0.5 * Double(k), dts: 0.5 * Double(k), duration: 0.5, size: 10, position: nil, isKeyframe: true)
            _ = machine.received(packet, bytesReceived: 10, bytesDelivered: 10, now: 0)
        }
        let first = machine.finish(.interrupted, now: 1.5)
        #expect(first?.report.played == 1.5)
        let again = machine.finish(.endOfInput, now: 9)
        #expect(again?.report.played == 1.5)
        #expect(machine.isFinished)
    }

    @Test("--record-trace: bytes, loading and request latencies are recorded on the machine's clock")
    func recording() throws {
        var machine = CheckMachine(policy: BufferPolicy(forwardTarget: 1), recordsTrace: true)
        _ = machine.opened(Self.vod(10), now: 0)
        machine.requestOpened(at: 0, latency: 0.2)
        let packet = MediaPacket(stream: 0, pts: 0, dts: 0, duration: 1.5, size: 500, position: nil, isKeyframe: true)
        let action = machine.received(packet, bytesReceived: 500, bytesDelivered: 500, now: 0.4)
        guard case .wait = action else {
            Issue.record("a buffer over its target waits, got \(action)")
            return
        }
        #expect(machine.recording != nil)
        #expect(machine.counters.bytes == 500)
        #expect(machine.counters.firstPacketTime == 0.4)
        #expect(machine.counters.mediaReceived == 1.5)
    }
}
