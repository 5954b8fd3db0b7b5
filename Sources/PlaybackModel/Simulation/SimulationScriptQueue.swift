/// The engine's agenda of timed script steps: the steps as written, the ends of their pauses and outages,
/// and pauses a viewer asks for during the session, in the order they run.
///
/// Network steps (bandwidth, outage, latency) are applied to the network when the queue is made, since a
/// transfer needs the whole future of its network; they stay on the queue only to be recorded at their time.
struct SimulationScriptQueue: Sendable {
    /// One entry of the agenda.
    struct Entry: Sendable {
        /// What the entry does when it comes up.
        enum Kind: Sendable {
            /// A step of the script.
            case step(SimulationStep.Action)
            /// A pause is over: play again.
            case resume
            /// An outage is over (recorded; the network already knows).
            case outageEnd
        }
        /// Session time, seconds.
        var time: Double
        /// Place in the script: entries at the same time run in this order.
        var order: Int
        /// What happens.
        var kind: Kind
    }

    private var entries: [Entry]
    private var index = 0

    /// Builds the agenda of `steps` and applies their network changes to `network`.
    init(steps: [SimulationStep], network: inout NetworkModel) {
        var entries: [Entry] = []
        for (order, step) in steps.enumerated() {
            switch step.action {
            case .bandwidth(let bitsPerSecond): network.setBandwidth(bitsPerSecond, at: step.time)
            case .outage(let duration):
                network.addOutage(at: step.time, duration: duration)
                entries.append(Entry(time: step.time + duration, order: order, kind: .outageEnd))
            case .latency(let latency): network.setLatency(latency, at: step.time)
            case .pause(let duration):
                entries.append(Entry(time: step.time + duration, order: order, kind: .resume))
            case .seek, .rate, .play: break
            }
            entries.append(Entry(time: step.time, order: order, kind: .step(step.action)))
        }
        // Ends of pauses and outages sort after steps written at the same time.
        entries.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        self.entries = entries
    }

    /// Session time of the next entry; `infinity` when none is left.
    var nextTime: Double { index < entries.count ? entries[index].time : .infinity }

    /// Removes and returns the next entry.
    mutating func popNext() -> Entry? {
        guard index < entries.count else { return nil }
        defer { index += 1 }
        return entries[index]
    }

    /// Whether a viewer's seek is still to come (a session that ended may go on after it).
    var hasPendingSeek: Bool {
        entries[index...].contains { entry in
            if case .step(.seek) = entry.kind { return true }
            return false
        }
    }

    /// Schedules the end of a pause the viewer started at `time`, after every entry already due by then.
    mutating func scheduleResume(at time: Double) {
        let resume = Entry(time: time, order: Int.max, kind: .resume)
        let position = entries[index...].firstIndex { ($0.time, $0.order) > (resume.time, resume.order) }
        entries.insert(resume, at: position ?? entries.count)
    }
}
