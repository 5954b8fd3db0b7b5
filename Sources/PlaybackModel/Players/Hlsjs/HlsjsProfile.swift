/// hls.js on Chromium: hls.js keeps `maxBufferLength` 30 s ahead and everything behind (`backBufferLength`
/// Infinity) and has no start or resume threshold of its own, so the browser's rule decides: under MSE
/// Chromium starts once a segment is appended and doubles its resume threshold per stall up to 3 s, as for
/// a progressive file (measured by `Benchmarks/webplayers.sh`); hls.js's stall watchdog seeks the playhead
/// on after 2 s stalled with data ahead (`StallNudge.hlsjs`). On `simulate` its own ABR (`HlsjsAbr`) runs
/// too. At the end of the video's data Chromium plays on with audio for its underflow grace.
public struct HlsjsProfile: PlayerProfile {
    /// The profile.
    public init() {}

    /// `hlsjs`.
    public var name: String { "hlsjs" }
    /// `hls.js`.
    public var aliases: [String] { ["hls.js"] }
    /// `hls.js of September 2023`.
    public var playerName: String { "hls.js of September 2023" }
    /// Benchmarks/README.md's `webplayers.sh` run of 2026-11-28 at 943ec17.
    public var measuredAgreement: String { "simulate agreed in 11 of 12 cases" }
    /// hls.js's config, gap controller and ABR controller; Chromium's rule, measured.
    public var source: String {
        "hls.js src/config.ts (maxBufferLength 30, backBufferLength Infinity; highBufferWatchdogPeriod 2, nudgeOffset 0.1: src/controller/gap-controller.ts); no start threshold of its own: Chromium's under MSE (measured: starts once a segment is appended, resume threshold doubled per stall to 3 s); ABR: src/controller/abr-controller.ts"
    }

    /// Chromium's doubling decoded-audio queue under MSE too (measured by `Benchmarks/webplayers.sh`: with
    /// 2 s segments the first three stalls since a seek ended as the next segment was appended, the fourth,
    /// needing 3 s, did not), 30 s ahead, everything behind, and hls.js's watchdog, which seeks the
    /// playhead on after 2 s stalled with data ahead (a seek: the doubling starts over).
    public var policy: BufferPolicy {
        var policy = BufferPolicy(
            startThreshold: ChromiumProfile.startingCapacity, resumeThreshold: ChromiumProfile.firstResume,
            forwardTarget: 30, backBuffer: .infinity, resumeGrowth: ChromiumProfile.resumeGrowth)
        policy.stallNudge = .hlsjs
        return policy
    }

    /// `HlsjsAbr`.
    public var abr: PlayerAbr? { PlayerAbr(HlsjsAbr()) }

    /// Chromium's `videoUnderflowThreshold`: hls.js leaves stalls to the browser.
    public var videoUnderflowGrace: Double? { ChromiumProfile.videoUnderflowThreshold }
}
