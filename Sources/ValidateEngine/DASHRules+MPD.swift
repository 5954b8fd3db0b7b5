import MediaIO

// The rules about the MPD's own text: the attributes the standard makes mandatory.
extension DASHRules {
    /// iso23009-1:5.3.1.2: `MPD@profiles` and `@minBufferTime`, `@mediaPresentationDuration` for a static MPD
    /// (a `Period@duration` does not replace it, as the DASH-IF conformance software also reads the clause),
    /// `@availabilityStartTime` for a dynamic one,
    /// a `Period`, and a `Representation` in every `AdaptationSet`.
    public static func mpdAttributes(_ dash: DASHRead) -> [Finding] {
        var missing: [String] = []
        for attribute in ["profiles", "minBufferTime"] where dash.mpd.attributes[attribute] == nil { missing.append("MPD@\(attribute)") }
        if dash.mpd.attributes["type"] ?? "static" == "static", dash.mpd.attributes["mediaPresentationDuration"] == nil {
            missing.append("MPD@mediaPresentationDuration (the MPD is static)")
        }
        if dash.isDynamic, dash.mpd.attributes["availabilityStartTime"] == nil {
            missing.append("MPD@availabilityStartTime (the MPD is dynamic)")
        }
        var found = missing.map { Finding(rule: "iso23009-1:5.3.1.2", message: "\($0) is missing", where: [dash.uri]) }
        let periods = dash.mpd.children("Period")
        if periods.isEmpty { found.append(Finding(rule: "iso23009-1:5.3.1.2", message: "the MPD has no Period", where: [dash.uri])) }
        for period in periods {
            let sets = period.children("AdaptationSet")
            if sets.isEmpty { found.append(Finding(rule: "iso23009-1:5.3.1.2", message: "the Period has no AdaptationSet", where: [dash.uri])) }
            let empty = sets.filter { $0.children("Representation").isEmpty }
            if !empty.isEmpty {
                found.append(Finding(
                    rule: "iso23009-1:5.3.1.2", message: "an AdaptationSet has no Representation \(HLSRules.often(empty.count, of: sets.count, "AdaptationSet"))",
                    where: [dash.uri], count: empty.count, total: sets.count))
            }
        }
        return found
    }

    /// iso23009-1:5.3.5.2: every `Representation` has `@id` (unique in its period) and `@bandwidth` (a whole
    /// number), `@mimeType` on it or its `AdaptationSet`, and a way to its segments (`SegmentTemplate`,
    /// `SegmentList`, `SegmentBase` or a `BaseURL`, on it or a level above).
    public static func representationAttributes(_ dash: DASHRead) -> [Finding] {
        var problems: [String: Int] = [:]
        var order: [String] = []
        var total = 0
        func note(_ problem: String) {
            if problems[problem] == nil { order.append(problem) }
            problems[problem, default: 0] += 1
        }
        let addressing = ["SegmentTemplate", "SegmentList", "SegmentBase", "BaseURL"]
        for period in dash.mpd.children("Period") {
            var ids: Set<String> = []
            let periodAddressed = addressing.contains { period.child($0) != nil } || addressing.contains { dash.mpd.child($0) != nil }
            for set in period.children("AdaptationSet") {
                let setAddressed = periodAddressed || addressing.contains { set.child($0) != nil }
                for element in set.children("Representation") {
                    total += 1
                    if let id = element.attributes["id"] {
                        if !ids.insert(id).inserted { note("@id \(id) is used twice in the Period") }
                    } else {
                        note("@id is missing")
                    }
                    if let text = element.attributes["bandwidth"] {
                        if UInt64(text) == nil { note("@bandwidth \"\(text)\" is not a whole number of bits per second") }
                    } else {
                        note("@bandwidth is missing")
                    }
                    if element.attributes["mimeType"] == nil, set.attributes["mimeType"] == nil {
                        note("@mimeType is missing (on the Representation and its AdaptationSet)")
                    }
                    if !setAddressed, !addressing.contains(where: { element.child($0) != nil }) {
                        note("no SegmentTemplate, SegmentList, SegmentBase or BaseURL leads to its segments")
                    }
                }
            }
        }
        return order.map { problem in
            let count = problems[problem] ?? 0
            return Finding(
                rule: "iso23009-1:5.3.5.2", message: "Representation \(problem) \(HLSRules.often(count, of: total, "Representation"))",
                where: [dash.uri], count: count, total: total)
        }
    }

    /// dvb-dash:4.7.2: a dynamic MPD names at least one `UTCTiming` source, the clock its players set theirs by.
    public static func liveTiming(_ dash: DASHRead) -> [Finding] {
        guard dash.isDynamic, dash.mpd.children("UTCTiming").isEmpty else { return [] }
        return [Finding(
            rule: "dvb-dash:4.7.2", message: "the MPD is dynamic (live) but has no UTCTiming element: players cannot set their clock by the origin's",
            where: [dash.uri])]
    }
}
