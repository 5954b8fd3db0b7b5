import BufprobeCommands
@testable import CheckEngine
import BufprobeServe
import PlaybackModel
import Testing

/// `/probe`'s parameters: the one duration and variant grammar of `check`, refusals with one sentence,
/// and the scrape timeout bounding the check.
@Suite("serve: /probe parameters")
struct ProbeRequestTests {
    @Test(
        "valid queries: decoded target, durations in check's grammar, capped at the scrape budget",
        arguments: [
            // query, scrape timeout header, target, duration, timeout
            ("target=http%3A%2F%2F127.0.0.1%3A8080%2Fa.m3u8", nil, "http://127.0.0.1:8080/a.m3u8", 9.5, 9.5),
            ("target=http://h/a.mp4&duration=2s", "10", "http://h/a.mp4", 2, 9.5),
            ("duration=1.5&target=http://h/a%20b.mp4&timeout=500ms", "4", "http://h/a b.mp4", 1.5, 0.5),
            ("target=http://h/a+b.mp4&duration=1m", "8", "http://h/a b.mp4", 7.5, 7.5),
            ("target=http://h/a.mp4&timeout=3", "20", "http://h/a.mp4", 19.5, 3),
            ("target=http://h/a.mp4", "1", "http://h/a.mp4", 0.75, 0.75),
            ("target=http://h/a.mp4", "3600", "http://h/a.mp4", 119.5, 10),
            ("&target=http://h/a.mp4&&", " 6 ", "http://h/a.mp4", 5.5, 5.5),
        ] as [(String, String?, String, Double, Double)])
    func validQuery(query: String, header: String?, target: String, duration: Double, timeout: Double) throws {
        let request = try ProbeRequest(query: query, scrapeTimeout: header)
        #expect(request.target == target)
        #expect(request.settings.duration == duration)
        #expect(request.settings.timeout == timeout)
        #expect(request.budget == duration || request.settings.duration ?? 0 <= request.budget)
    }

    @Test(
        "a control character in any parameter (a NUL that would cut the URL FFmpeg gets, CR, LF, ESC, DEL) is refused 400",
        arguments: [
            "target=http%3A%2F%2F127.0.0.1%3A8080%2Fa.m3u8%00.evil", "target=http://h/a%0d%0aX-Injected:%201",
            "target=http://h/a%1b%5b2J.mp4", "target=http://h/a%7f.mp4", "target=http://h/a%c2%9b.mp4",
            "target=http://h/a.mp4&duration=2s%00", "target=http://h/a.mp4&vari%00ant=best",
        ])
    func controlCharacters(query: String) throws {
        do {
            _ = try ProbeRequest(query: query, scrapeTimeout: nil)
            Issue.record("\(query) was accepted")
        } catch {
            #expect(error.kind == .badRequest)
            #expect(error.sentence.contains("control character"), "\(error.sentence)")
            #expect(!error.sentence.unicodeScalars.contains(where: ProbeRequest.isControl), "the sentence carries none itself")
        }
    }

    @Test("all_variants=true turns on check's --all-variants and gives the sample, each wait and the validation a third of the budget")
    func allVariants() throws {
        let on = try ProbeRequest(query: "target=http://h/m.m3u8&all_variants=true", scrapeTimeout: "10")
        #expect(on.settings.allVariants)
        #expect(on.settings.duration == 9.5 / 3 && on.settings.timeout == 9.5 / 3)
        #expect(on.settings.allVariantsBudget == 9.5 / 3, "the validation ends within the last third")
        let off = try ProbeRequest(query: "target=http://h/m.m3u8&all_variants=false", scrapeTimeout: "10")
        #expect(!off.settings.allVariants && off.settings.duration == 9.5)
        #expect(throws: ProbeRefusal.self) { try ProbeRequest(query: "target=http://h/m.m3u8&all_variants=yes", scrapeTimeout: nil) }
    }

    @Test("player= sets check's --player preset and its policy; an unknown player is refused")
    func player() throws {
        let request = try ProbeRequest(query: "target=http://h/m.mp4&player=chromium", scrapeTimeout: nil)
        #expect(request.settings.player == .chromium)
        #expect(request.settings.policy == PlayerPreset.chromium.policy)
        #expect(try ProbeRequest(query: "target=http://h/m.mp4&player=exoplayer", scrapeTimeout: nil).settings.player == .media3)
        #expect(try ProbeRequest(query: "target=http://h/m.mp4", scrapeTimeout: nil).settings.player == nil)
        #expect(throws: ProbeRefusal.self) { try ProbeRequest(query: "target=http://h/m.mp4&player=winamp", scrapeTimeout: nil) }
    }

    @Test("variant takes check's forms", arguments: [("best", VariantChoice.best), ("lowest", .lowest), ("2", .index(2)), ("800k", .bandwidth(800_000))])
    func variant(text: String, choice: VariantChoice) throws {
        #expect(try ProbeRequest(query: "target=http://h/m.m3u8&variant=\(text)", scrapeTimeout: nil).settings.variant == choice)
    }

    @Test(
        "mistakes are one sentence with the status to answer",
        arguments: [
            (nil, nil, 400, "/probe needs a target parameter"),
            ("target=", nil, 400, "/probe needs a target parameter"),
            ("duration=2s", nil, 400, "/probe needs a target parameter"),
            ("target=http://h/a&duration=-1", nil, 400, "duration: '-1' must not be negative"),
            ("target=http://h/a&duration=3 parsecs", nil, 400, "duration: '3 parsecs' has an unknown unit"),
            ("target=http://h/a&duration=0", nil, 400, "duration must be more than 0 seconds"),
            ("target=http://h/a&timeout=soon", nil, 400, "timeout: 'soon' is not a duration"),
            ("target=http://h/a&variant=highest", nil, 400, "variant: 'highest' is not best, lowest"),
            ("target=http://h/a&prober=http", nil, 400, "/probe takes no parameter 'prober'; it takes target, module, duration, timeout, variant, all_variants, player, live_start and debug."),
            ("target=http://h/a&debug=yes", nil, 400, "debug takes true or false, got 'yes'."),
            ("target=http://h/a&target=http://h/b", nil, 400, "the parameter target is given twice."),
            ("target=http://h/%zz", nil, 400, "the query is not valid percent-encoding."),
            ("target=http://h/a", "soon", 400, "the X-Prometheus-Scrape-Timeout-Seconds header must be a number of seconds above 0"),
            ("target=http://h/a", "-3", 400, "the X-Prometheus-Scrape-Timeout-Seconds header must be"),
            ("target=http://h/a", "nan", 400, "the X-Prometheus-Scrape-Timeout-Seconds header must be"),
            ("target=http://h/" + String(repeating: "a", count: 9000), nil, 414, "the query is longer than 8192 bytes."),
        ] as [(String?, String?, Int, String)])
    func refusal(query: String?, header: String?, status: Int, sentence: String) {
        #expect {
            try ProbeRequest(query: query, scrapeTimeout: header)
        } throws: { error in
            guard let refusal = error as? ProbeRefusal else { return false }
            return refusal.kind.status == status && refusal.sentence.hasPrefix(sentence) && refusal.sentence.hasSuffix(".")
                && !refusal.sentence.contains("\n")
        }
    }

    @Test("a long unknown parameter name is cut in the sentence")
    func longNameIsCut() {
        let name = String(repeating: "x", count: 500)
        #expect {
            try ProbeRequest(query: "target=http://h/a&\(name)=1", scrapeTimeout: nil)
        } throws: { error in
            ((error as? ProbeRefusal)?.sentence.count ?? 1000) < 200
        }
    }
}
