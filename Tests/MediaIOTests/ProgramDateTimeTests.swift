import MediaIO
import Testing

@Suite("EXT-X-PROGRAM-DATE-TIME and the server's hold-backs")
struct ProgramDateTimeTests {
    @Test(
        "every zone form real playlists carry reads the same instant",
        arguments: [
            "2026-11-26T23:20:01.250Z", "2026-11-26T23:20:01.250+0000", "2026-11-26T23:20:01.250+00:00",
            "2026-11-27T00:20:01.250+01:00", "2026-11-26T22:20:01.25-0100", "2026-11-27T01:20:01.250+02",
        ])
    func zones(text: String) {
        // 2026-11-26T23:20:01Z is 1795735201 s after the epoch (date -u -d ... +%s).
        #expect(ProgramDateTime.parse(text) == 1_795_735_201.25)
    }

    @Test("a date-time without a zone, or with junk, is not placed on the clock", arguments: [
        "2026-11-26T23:20:01", "2026-11-26 23:20:01Z", "2026-13-26T23:20:01Z", "2026-11-26T23:20:01.Z", "yesterday",
        "2026-11-26T23:20:01Zjunk", "",
    ])
    func rejected(text: String) {
        #expect(ProgramDateTime.parse(text) == nil)
    }

    @Test("the epoch and a leap day count whole days exactly")
    func calendar() {
        #expect(ProgramDateTime.parse("1970-01-01T00:00:00Z") == 0)
        #expect(ProgramDateTime.parse("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(ProgramDateTime.parse("2000-03-01T00:00:00Z") == 951_868_800)
    }

    @Test("a segment without its own date carries the previous one's plus its duration, never across a discontinuity")
    func carried() throws {
        let playlist = try HLSPlaylist.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,HOLD-BACK=6.5,CAN-SKIP-UNTIL=12
            #EXT-X-PART-INF:PART-TARGET=0.33334
            #EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:10.000Z
            #EXTINF:2.0,
            a.ts
            #EXTINF:1.5,
            b.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2.0,
            c.ts
            """)
        #expect(playlist.segments.map(\.programDateTime) == [10, 12, nil])
        #expect(playlist.segments.map(\.hasOwnProgramDateTime) == [true, false, false])
        #expect(playlist.holdBack == 6.5 && playlist.partHoldBack == 1.0 && playlist.canSkipUntil == 12)
        #expect(playlist.canBlockReload && playlist.partTarget == 0.33334)
        #expect(playlist.holdBack(playsParts: true)?.rule == "PART-HOLD-BACK")
        #expect(playlist.holdBack(playsParts: false)?.seconds == 6.5)
    }

    @Test("with no SERVER-CONTROL the hold-back is three target durations")
    func defaultHoldBack() throws {
        let playlist = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n")
        #expect(playlist.holdBack(playsParts: true)?.seconds == 12)
        #expect(playlist.holdBack(playsParts: true)?.rule == "3 x EXT-X-TARGETDURATION")
    }
}
