import Foundation

/// Reads the time a DASH manifest's `UTCTiming` names, once, and works out how far the stream's clock is
/// ahead of this machine's: server time minus local time, the local time taken half way through the request
/// (so half the round trip is allowed for). A date given in whole seconds is read as the middle of that
/// second (nginx's `$time_iso8601` has no fraction), so the offset is off by at most half a second there.
///
/// Supported: `http-xsdate` and `http-iso` (a GET whose body is the date, through `ResourceReader`: the same
/// protocol whitelist, request policy, pace and timeout as the input's own requests), `direct` (the value
/// is the date, against when the manifest was read). Not supported, with a sentence: `http-head` (FFmpeg's
/// reader does not give response headers back), `ntp` (bufprobe speaks no NTP) and unknown schemes. This
/// machine's time is the interrupter's clock's wall time (`IOClock.unixTime()`).
public enum UTCTimingSource {
    /// The offset (seconds the stream's clock is ahead of this machine's) and the round trip it took, or why
    /// there is none.
    public static func offset(
        of timing: DASHLiveManifest.UTCTiming, manifestURL: String, manifestReadAt: Double, options: [String: String],
        interrupter: Interrupter
    ) -> Result<(offset: Double, roundTrip: Double), UTCTimingError> {
        switch timing.scheme {
        case .direct:
            guard let date = parseDate(timing.value) else {
                return .failure(UTCTimingError(reason: "its direct UTCTiming value is not a date ('\(timing.value.prefix(40))')"))
            }
            return .success((date - manifestReadAt, 0))
        case .httpXSDate, .httpISO:
            let url = URLReference.resolve(timing.value, against: manifestURL)
            let sent = interrupter.clock.unixTime()
            let bytes: [UInt8]
            do {
                bytes = try ResourceReader(url: url, options: options, interrupter: interrupter).readAll(limit: 4096)
            } catch {
                return .failure(UTCTimingError(reason: "its UTCTiming URL \(url) could not be read (\(error.message))"))
            }
            let received = interrupter.clock.unixTime()
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = parseDate(text) else {
                return .failure(UTCTimingError(reason: "its UTCTiming URL \(url) answered something that is not a date ('\(text.prefix(40))')"))
            }
            return .success((date - (sent + received) / 2, received - sent))
        case .httpHead:
            return .failure(UTCTimingError(reason: "it gives only an http-head UTCTiming, which bufprobe does not read (FFmpeg's reader does not return response headers)"))
        case .ntp:
            return .failure(UTCTimingError(reason: "it gives only an NTP UTCTiming, which bufprobe does not speak"))
        case nil:
            return .failure(UTCTimingError(reason: "its UTCTiming scheme \(timing.schemeIdUri.prefix(80)) is not one bufprobe knows"))
        }
    }

    /// An ISO 8601 date-time (no zone: UTC); whole seconds read as the middle of the second.
    static func parseDate(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let date = ProgramDateTime.parse(trimmed) ?? ProgramDateTime.parse(trimmed + "Z") else { return nil }
        let hasFraction = trimmed.contains(".") || trimmed.contains(",")
        return hasFraction ? date : date + 0.5
    }
}
