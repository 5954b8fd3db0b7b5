import PlaybackModel
import Testing

@Suite("Units: the one duration and rate grammar")
struct UnitsTests {
    @Test(
        "durations accept ms, s, m, h, d, spelled-out units in any case, sums, clock notation and plain seconds",
        arguments: [
            ("250ms", 0.25), ("1.5s", 1.5), ("2m", 120), ("2min", 120), ("1h", 3600), ("90", 90), ("0", 0),
            ("1:30", 90), ("1:02:03", 3723), (" 10 s ", 10), ("1e3ms", 1), ("250MS", 0.25), ("2 Minutes", 120),
            ("1H", 3600), ("1d", 86_400), ("1h30m", 5400), ("2m30s", 150), ("1h 0m 1.5s", 3601.5), ("7d", 604_800),
        ])
    func durations(text: String, seconds: Double) throws {
        #expect(try Seconds(parsing: text).value == seconds)
    }

    @Test(
        "rates: bare numbers and bare prefixes are bit/s, b and bit are bits, B and byte are bytes, decimal prefixes in any case",
        arguments: [
            ("400k", 400_000), ("1.5M", 1.5e6), ("2G", 2e9), ("64000", 64_000), ("500kbit", 500_000),
            ("2Mbit", 2_000_000), ("2mbit", 2e6), ("2MBIT", 2e6), ("1Gbit", 1e9), ("2Mbit/s", 2e6), ("2Mbps", 2e6),
            ("2mbps", 2e6), ("2Mb", 2e6), ("2Mb/s", 2e6), ("250kB/s", 2_000_000), ("250KB/s", 2_000_000),
            ("1MB/s", 8e6), ("100Bps", 800), ("3kB", 24_000), ("1.5 Mbit", 1.5e6), ("0", 0), ("800bit", 800),
            ("100B/s", 800), ("1 kbits/s", 1000), ("2 bytes/s", 16), ("1Tbit", 1e12), ("1e6", 1e6),
        ])
    func bitRates(text: String, bitsPerSecond: Double) throws {
        #expect(try BitRate(parsing: text).bitsPerSecond == bitsPerSecond)
    }

    @Test("byte rates read the same grammar and count bytes")
    func byteRates() throws {
        #expect(try ByteRate(parsing: "250kB/s").bytesPerSecond == 250_000)
        #expect(try ByteRate(parsing: "2Mbit").bytesPerSecond == 250_000)
        #expect(ByteRate(bytesPerSecond: 250_000).description == "250 kB/s")
        #expect(ByteRate(bytesPerSecond: 1_234_567).description == "1.23 MB/s")
    }

    @Test(
        "malformed, negative, non-finite and out-of-range quantities are one sentence naming the text and the accepted forms",
        arguments: [
            ("5 parsecs", UnitError.Quantity.duration, "'5 parsecs' has an unknown unit 'parsecs'"),
            ("-3s", .duration, "'-3s' must not be negative"),
            ("-1", .duration, "'-1' must not be negative"),
            ("-1:30", .duration, "'-1:30' must not be negative"),
            ("fast", .duration, "'fast' is not a duration"),
            ("1:75", .duration, "'1:75' is not a duration"),
            ("30m1h", .duration, "'30m1h' is not a duration"),
            ("nan", .duration, "'nan' is not a duration"),
            ("inf", .duration, "'inf' is not a duration"),
            ("1e12", .duration, "'1e12' is longer than 7 days"),
            ("8d", .duration, "'8d' is longer than 7 days"),
            ("", .duration, "'' is not a duration"),
            ("2Mx", .bitRate, "'2Mx' has an unknown unit 'Mx'"),
            ("-1Mbit", .bitRate, "'-1Mbit' must not be negative"),
            ("-1", .bitRate, "'-1' must not be negative"),
            ("nan", .bitRate, "'nan' is not a rate"),
            ("infinity", .bitRate, "'infinity' is not a rate"),
            ("1e19", .bitRate, "'1e19' is more than 1 Tbit/s"),
            ("2Tbit", .bitRate, "'2Tbit' is more than 1 Tbit/s"),
            ("400k/s", .bitRate, "'400k/s' has an unknown unit 'k/s'"),
            ("0", .factor, "'0' must be greater than 0"),
            ("1e9", .factor, "'1e9' is more than 1000"),
            ("quick", .factor, "'quick' is not a number"),
        ])
    func rejected(text: String, quantity: UnitError.Quantity, message: String) {
        #expect {
            switch quantity {
            case .duration: _ = try Seconds(parsing: text)
            case .bitRate: _ = try BitRate(parsing: text)
            case .factor: _ = try Factor(parsing: text)
            }
        } throws: { error in
            guard let error = error as? UnitError else { return false }
            return error.quantity == quantity && error.description.hasPrefix(message)
                && error.description.hasSuffix(UnitError.accepted(quantity) + ".")
        }
    }

    @Test("multiples are positive numbers with an optional x")
    func factors() throws {
        #expect(try Factor(parsing: "1.5").value == 1.5)
        #expect(try Factor(parsing: "2x").value == 2)
        #expect(try Factor(parsing: "0.5X").value == 0.5)
    }

    @Test("formatting for people picks the largest fitting unit, and reads back")
    func formatting() throws {
        #expect(Seconds(0.25).description == "250ms")
        #expect(Seconds(1.5).description == "1.5s")
        #expect(Seconds(150).description == "2m30s")
        #expect(Seconds(3720).description == "1h2m")
        #expect(BitRate(bitsPerSecond: 2_500_000).description == "2.5 Mbit/s")
        #expect(BitRate(bitsPerSecond: 640_000).description == "640 kbit/s")
        #expect(BitRate(bitsPerSecond: 4_199_834).description == "4.2 Mbit/s")
        #expect(BitRate(bitsPerSecond: 52_379).description == "52.4 kbit/s")
        #expect(BitRate(bitsPerSecond: 999_700).description == "1 Mbit/s")
        #expect(BitRate(bitsPerSecond: 800).description == "800 bit/s")
        #expect(try BitRate(parsing: BitRate(bitsPerSecond: 252_824).description).bitsPerSecond == 253_000)
        for value in [0.25, 1.5, 150, 3720, 0] {
            #expect(try Seconds(parsing: Seconds(value).description).value == value)
        }
        for value in [800.0, 640_000, 2_500_000, 1e9] {
            #expect(try BitRate(parsing: BitRate(bitsPerSecond: value).description).bitsPerSecond == value)
        }
    }
    @Test(
        "a rate as meant refuses a unit-less number below 1,000 with the unit it likely meant, and 0 in any unit",
        arguments: [
            ("150", "'150' has no unit, so it is 150 bit/s, slower than any network or media; did you mean 150k (150 kbit/s)?"),
            ("2", "'2' has no unit, so it is 2 bit/s, slower than any network or media; did you mean 2M (2 Mbit/s)?"),
            ("999", "'999' has no unit, so it is 999 bit/s, slower than any network or media; did you mean 999k (999 kbit/s)?"),
            ("0", "'0' is no rate at all; TAIL"),
            ("0kbit", "'0kbit' is no rate at all; TAIL"),
        ])
    func rateAsMeantRefuses(text: String, sentence: String) {
        #expect(throws: UnitError.self) { try BitRate(parsingAsMeant: text, zero: "TAIL") }
        do {
            _ = try BitRate(parsingAsMeant: text, zero: "TAIL")
        } catch {
            #expect(error.description == sentence)
        }
    }

    @Test("a rate as meant keeps every rate with a unit, and unit-less ones from 1,000 bit/s, unchanged", arguments: [
        ("1000", 1000.0), ("150k", 150_000), ("800bit", 800), ("100Bps", 800), ("2Mbit", 2_000_000), ("64000", 64_000),
    ])
    func rateAsMeantKeeps(text: String, bitsPerSecond: Double) throws {
        #expect(try BitRate(parsingAsMeant: text, zero: "").bitsPerSecond == bitsPerSecond)
        #expect(try BitRate(parsing: text).bitsPerSecond == bitsPerSecond)
    }
}
