import Foundation
import PlaybackModel
import Testing

@Suite("BufferPolicy")
struct BufferPolicyTests {
    @Test("defaults are Media3's DefaultLoadControl: 1 s start, 2 s resume, 50 s target, no back buffer")
    func defaults() throws {
        let policy = BufferPolicy.default
        #expect(policy.startThreshold == 1)
        #expect(policy.resumeThreshold == 2)
        #expect(policy.forwardTarget == 50)
        #expect(policy.backBuffer == 0)
        #expect(policy.keepUp == .threshold)
        try policy.validate()
    }

    @Test("a constrained network lowers the forward target but never below resume nor above the original")
    func constrained() throws {
        #expect(BufferPolicy.constrained.forwardTarget == BufferPolicy.constrainedForwardTarget)
        #expect(BufferPolicy(resumeThreshold: 20, forwardTarget: 30).constrained().forwardTarget == 20)
        #expect(BufferPolicy(forwardTarget: 5).constrained().forwardTarget == 5)
        try BufferPolicy.constrained.validate()
    }

    @Test(
        "validation rejects each broken rule with its own error",
        arguments: [
            (BufferPolicy(startThreshold: -1), BufferPolicyError.negative(.startThreshold, -1)),
            (BufferPolicy(startThreshold: 3, resumeThreshold: 2), .resumeBelowStart(resume: 2, start: 3)),
            (BufferPolicy(resumeThreshold: 60), .targetBelowResume(target: 50, resume: 60)),
            (BufferPolicy(forwardTarget: .infinity), .notFinite(.forwardTarget)),
            (BufferPolicy(backBuffer: -2), .negative(.backBuffer, -2)),
            (BufferPolicy(keepUp: .predictive(horizon: 0)), .invalidHorizon(0)),
        ])
    func validation(policy: BufferPolicy, expected: BufferPolicyError) {
        #expect(throws: expected) { try policy.validate() }
    }

    @Test("an infinite back buffer (keep everything) is valid")
    func infiniteBackBuffer() throws {
        try BufferPolicy(backBuffer: .infinity).validate()
    }

    @Test("error descriptions are one sentence naming the setting and the fix")
    func errorDescription() {
        let text = BufferPolicyError.resumeBelowStart(resume: 0.5, start: 1).description
        #expect(text == "the resume threshold (0.5 s) is below the start threshold (1.0 s); make it at least as large.")
        for error in [BufferPolicyError.negative(.backBuffer, -1), .notFinite(.startThreshold), .invalidHorizon(-3)] {
            #expect(error.description.hasPrefix("the "))
            #expect(error.description.hasSuffix("."))
            #expect(error.description.filter { $0 == "." }.count <= 3)
        }
    }
}

@Suite("BufferPolicy coding")
struct BufferPolicyCodingTests {
    @Test("a policy decodes from snake_case keys with missing keys taking the defaults")
    func partialDecode() throws {
        let json = #"{"forward_target": 15, "back_buffer": "all", "keep_up": "predictive", "keep_up_horizon": 30}"#
        let policy = try JSONDecoder().decode(BufferPolicy.self, from: Data(json.utf8))
        #expect(policy == BufferPolicy(forwardTarget: 15, backBuffer: .infinity, keepUp: .predictive(horizon: 30)))
        #expect(try JSONDecoder().decode(BufferPolicy.self, from: Data("{}".utf8)) == .default)
    }

    @Test("a policy survives an encode and decode round trip")
    func roundTrip() throws {
        for policy in [BufferPolicy.default, .constrained, BufferPolicy(backBuffer: .infinity, keepUp: .predictive(horizon: nil))] {
            let data = try JSONEncoder().encode(policy)
            #expect(try JSONDecoder().decode(BufferPolicy.self, from: data) == policy)
        }
    }
}
