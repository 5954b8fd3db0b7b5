import Testing

/// What a healthy LL-HLS check of the test origin (`llhls_origin.py`: 0.4 s parts, PART-HOLD-BACK 1.0 s,
/// one part in two independent, played 8 s) reports in its `low_latency` section; held by the real-time run
/// and by the replay of its recorded events alike.
enum LowLatencyExpectations {
    static func healthy(_ section: [String: Any]) throws {
        let made = section["blocking_reloads"] as? Int ?? 0
        #expect(made >= 8, "\(section)")
        #expect(section["blocking_reloads_held"] as? Int == made)
        // 8 s at 0.4 s a part, less the start: at least 15 parts.
        #expect((section["parts_played"] as? Int ?? 0) >= 15, "\(section)")
        // The start: the newest INDEPENDENT part at least PART-HOLD-BACK (1.0 s) behind the edge; one part in
        // two is independent, so at most 2 part targets (0.8 s) more.
        let behind = try #require(section["start_behind_edge"] as? Double)
        #expect(behind >= 1.0 - 1e-6 && behind <= 1.8 + 1e-6, "\(behind)")
        // A blocking reload is held for about one part target (0.4 s) while the next part is made.
        let mean = try #require(section["hold_mean"] as? Double)
        #expect(mean > 0.1 && mean < 0.8, "\(section)")
    }
}
