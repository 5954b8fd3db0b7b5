import MediaIO
import Testing

/// The LL-HLS client's decisions (`LowLatencyPartScheduler`), in virtual time: what it fetches, what it
/// asks a blocking reload for, how long it waits on the caller's clock, and when it stops.
@Suite("LowLatencyPartScheduler decides part by part")
struct LowLatencyPartSchedulerTests {
    /// Parts of 0.5 s; segment 20 complete (four parts), segment 21 in progress (`parts` of it listed).
    static func playlist(parts: Int = 1, delta: Bool = false) throws -> HLSPlaylist {
        var text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=12
            #EXT-X-PART-INF:PART-TARGET=0.5
            #EXT-X-MEDIA-SEQUENCE:20
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PART:DURATION=0.5,URI="p20.0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.5,URI="p20.1.m4s"
            #EXT-X-PART:DURATION=0.5,URI="p20.2.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.5,URI="p20.3.m4s"
            #EXTINF:2.0,
            s20.m4s

            """
        if delta { text = text.replacingOccurrences(of: "#EXT-X-MAP", with: "#EXT-X-SKIP:SKIPPED-SEGMENTS=0\n#EXT-X-MAP") }
        for index in 0..<parts { text += "#EXT-X-PART:DURATION=0.5,URI=\"p21.\(index).m4s\"\(index == 0 ? ",INDEPENDENT=YES" : "")\n" }
        return try HLSPlaylist.parse(text)
    }

    /// The URIs of the fetches `scheduler` asks for until it asks something else, answering each as `succeeded`.
    static func fetches(_ scheduler: inout LowLatencyPartScheduler) -> (uris: [String], then: LowLatencyPartScheduler.Step) {
        var uris: [String] = []
        while true {
            let step = scheduler.next()
            switch step {
            case .fetchMap(let map): uris.append(map.uri)
            case .fetchPart(let part, _): uris.append(part.uri)
            default: return (uris, step)
            }
            scheduler.fetched(true)
        }
    }

    static func asking(_ sequence: Int, _ part: Int, skip: Bool = false) -> LowLatencyPartScheduler.Step {
        .reload(asking: LowLatencyHLSClient.Request(sequence: sequence, part: part, skip: skip))
    }

    @Test("it starts at the newest independent part at least the hold-back behind the edge, fetches the map once, each part in order, then blocks for the next part")
    func startsAndBlocks() throws {
        var scheduler = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        #expect(scheduler.start?.part.uri == "p20.2.m4s")
        #expect(scheduler.start?.behindEdge == 1.5)
        let first = Self.fetches(&scheduler)
        #expect(first.uris == ["init.mp4", "p20.2.m4s", "p20.3.m4s", "p21.0.m4s"])
        #expect(first.then == Self.asking(21, 1))
        scheduler.reloaded(try Self.playlist(parts: 3), at: 4)
        let second = Self.fetches(&scheduler)
        #expect(second.uris == ["p21.1.m4s", "p21.2.m4s"])
        #expect(second.then == Self.asking(21, 3))
    }

    @Test("an answer without the part asked for is polled again after half a part target on the caller's clock")
    func answerWithoutThePart() throws {
        var scheduler = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        _ = Self.fetches(&scheduler)
        scheduler.reloaded(try Self.playlist(), at: 10)
        #expect(scheduler.next() == .wait(until: 10.25))
        #expect(scheduler.next() == Self.asking(21, 1))
    }

    @Test("a failed reload is retried after a part target; three failures in a row stop, and so does one at the end of the check")
    func failedReloads() throws {
        var scheduler = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        _ = Self.fetches(&scheduler)
        scheduler.reloaded(nil, at: 5)
        #expect(scheduler.next() == .wait(until: 5.5))
        #expect(scheduler.next() == Self.asking(21, 1))
        scheduler.reloaded(nil, at: 6)
        #expect(scheduler.next() == .wait(until: 6.5))
        #expect(scheduler.next() == Self.asking(21, 1))
        scheduler.reloaded(nil, at: 7)
        #expect(scheduler.next() == .stop)

        var ending = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        _ = Self.fetches(&ending)
        ending.reloaded(nil, at: 5, ending: true)
        #expect(ending.next() == .stop)
    }

    @Test("every fourth blocking reload asks for a delta update, which is not followed")
    func deltaUpdates() throws {
        var scheduler = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        var asked: [LowLatencyPartScheduler.Step] = [Self.fetches(&scheduler).then]
        for _ in 1..<5 {
            let delta = asked.count % 4 == 0
            scheduler.reloaded(try Self.playlist(delta: delta), at: 1)
            if !delta { #expect(scheduler.next() == .wait(until: 1.25)) }
            asked.append(scheduler.next())
        }
        #expect(asked == [Self.asking(21, 1), Self.asking(21, 1), Self.asking(21, 1), Self.asking(21, 1, skip: true), Self.asking(21, 1)])
    }

    @Test("a failed fetch stops it, and a playlist with no part to start at never starts")
    func stops() throws {
        var scheduler = LowLatencyPartScheduler(first: try Self.playlist(), holdBack: 1)
        #expect(scheduler.next() == .fetchMap(HLSPlaylist.Map(uri: "init.mp4", byteRange: nil)))
        scheduler.fetched(false)
        #expect(scheduler.next() == .stop)
        let plain = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\ns1.ts\n")
        var none = LowLatencyPartScheduler(first: plain, holdBack: 1)
        #expect(none.start == nil)
        #expect(none.next() == .stop)
    }
}
