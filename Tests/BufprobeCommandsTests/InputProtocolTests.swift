import BufprobeCommands
@testable import CheckEngine
import Foundation
import Testing
import TestSupport
import InputReading

@Suite("Inputs: which protocols a command-line input may use")
struct InputProtocolTests {
    @Test("each input is classified as FFmpeg would open it", arguments: [
        ("-", InputKind.standardInput), ("pipe:", .standardInput), ("pipe:0", .standardInput),
        ("pipe:3", .local(protocol: "pipe")), ("a.ts", .file(path: "a.ts")), ("file:a.ts", .file(path: "a.ts")),
        ("FILE:/x/a.ts", .file(path: "/x/a.ts")), ("notes:take1.ts", .file(path: "notes:take1.ts")),
        ("concat:a.ts|b.ts", .local(protocol: "concat")), ("concatf:list.txt", .local(protocol: "concatf")),
        ("subfile,,start,0,end,0,,:a.ts", .local(protocol: "subfile")), ("data:abc", .local(protocol: "data")),
        ("crypto:a.ts", .local(protocol: "crypto")), ("http://h/a.m3u8", .network(scheme: "http")),
        ("hls+http://h/a.m3u8", .network(scheme: "http")), ("crypto+https://h/a", .network(scheme: "https")),
        ("async:http://h/a", .network(scheme: "http")), ("udp://@:1234", .network(scheme: "udp")),
        ("tee:a|b", .refused(protocol: "tee", known: true)), ("unix:/run/x.sock", .refused(protocol: "unix", known: true)),
        ("nosuch://x/y", .refused(protocol: "nosuch", known: false)),
    ] as [(String, InputKind)])
    func classifies(input: String, kind: InputKind) {
        #expect(InputKind(input) == kind)
    }

    @Test("standard input and protocol-looking paths reach FFmpeg under the names it understands", arguments: [
        ("-", "pipe:0"), ("pipe:", "pipe:"), ("notes:take1.ts", "file:notes:take1.ts"), ("a.ts", "a.ts"),
        ("file:a.ts", "file:a.ts"), ("concat:a|b", "concat:a|b"),
    ])
    func ffmpegURL(input: String, url: String) {
        #expect(InputKind.ffmpegURL(for: input) == url)
    }

    @Test("the live line and plot title name every part of a concat:, a path by its file name", arguments: [
        ("concat:/m/a.ts|/m/b.ts", "concat:a.ts|b.ts"), ("/m/dir/a.ts", "a.ts"), ("file:/m/a.ts", "a.ts"),
        ("-", "stdin"), ("http://h/x/a.m3u8", "http://h/x/a.m3u8"), ("data:abc", "data:abc"),
    ])
    func title(input: String, title: String) {
        #expect(InputKind.title(of: input) == title)
    }

    @Test("a refused protocol is one sentence naming it", arguments: ["tee:a.ts|b.ts", "zmq:tcp://h:1", "nosuch://x/y"])
    func refusedSentence(input: String) throws {
        let sentence = try #require(InputCheck.problem(with: input))
        let name = try #require(input.split(whereSeparator: { $0 == ":" || $0 == "," }).first)
        #expect(sentence.contains("'\(name)'"), "\(sentence)")
        #expect(sentence.hasPrefix(input + ":"), "\(sentence)")
    }

    @Test("each part of a concat: list is checked like a path")
    func concatParts() throws {
        let good = BufprobeProcess.sample("h264-aac.ts")
        #expect(InputCheck.problem(with: "concat:\(good)|\(good)") == nil)
        let sentence = try #require(InputCheck.problem(with: "concat:\(good)|/nonexistent/b.ts"))
        #expect(sentence == "/nonexistent/b.ts: no such file.")
    }

    @Test("probe reads standard input (- and pipe:0), file: and concat: like the file itself", arguments: [
        ("-", true), ("pipe:0", true), ("file:SAMPLE", false), ("concat:SAMPLE|SAMPLE", false),
    ])
    func probeLocalProtocols(argument: String, piped: Bool) throws {
        let sample = BufprobeProcess.sample("h264-aac.ts")
        let input = argument.replacingOccurrences(of: "SAMPLE", with: sample)
        let result = try BufprobeProcess.run(
            ["probe", "--json", "--progress", "none", input], standardInput: piped ? sample : nil)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["source"] as? String == input)
        #expect(object["complete"] as? Bool == true)
        let streams = try #require(object["streams"] as? [[String: Any]])
        #expect(streams.count == 2)
        #expect(!result.stderr.contains("no such file"))
    }

    @Test("check and simulate read standard input too")
    func checkAndSimulateReadStandardInput() throws {
        let sample = BufprobeProcess.sample("h264-aac.ts")
        let check = try BufprobeProcess.run(["check", "--progress", "none", "-"], standardInput: sample)
        #expect(check.status == 0, "\(check.stderr)")
        let simulate = try BufprobeProcess.run(
            ["simulate", "--progress", "none", "--bandwidth", "2Mbit", "-"], standardInput: sample)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(simulate.stdout.contains("ended"))
    }

    @Test("probe refuses a protocol it does not read with one sentence naming it, exit 2")
    func probeRefusesProtocol() throws {
        let result = try BufprobeProcess.run(["probe", "--progress", "none", "tee:a.ts|b.ts"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: tee:a.ts|b.ts: bufprobe does not read FFmpeg's 'tee' protocol"), "\(result.stderr)")
    }
}
