extension SimulationEngine {
    // MARK: Viewer and script

    /// Where an action comes from: the script (network steps are recorded at their time, a pause's end is
    /// already queued) or a viewer (network actions are ignored: the network is fixed when the engine is made).
    enum ActionSource { case script, viewer }

    /// Applies a viewer action now, at `clock` (an interactive session: keys and clicks rather than a
    /// script). `.pause(.infinity)` pauses until a later `.play`; network actions are ignored here, as the
    /// network is fixed when the engine is made.
    public mutating func perform(_ action: SimulationStep.Action) {
        guard !isFinished else { return }
        handle(session.advance(to: clock))
        apply(action, from: .viewer)
    }

    /// Runs a script entry that came due.
    mutating func perform(_ entry: SimulationScriptQueue.Entry) {
        handle(session.advance(to: clock))
        switch entry.kind {
        case .resume:
            record(.resume, value: nil)
            handle(session.play(now: clock))
        case .outageEnd:
            record(.outageEnd, value: nil)
        case .step(let action):
            apply(action, from: .script)
        }
    }

    /// The one place a step's action acts on the session.
    mutating func apply(_ action: SimulationStep.Action, from source: ActionSource) {
        switch action {
        case .bandwidth(let bitsPerSecond):
            if source == .script { record(.bandwidth, value: bitsPerSecond) }
        case .outage(let duration):
            if source == .script { record(.outageStart, value: duration) }
        case .latency(let latency):
            if source == .script { record(.latency, value: latency) }
        case .seek(let offset):
            // Clamped to the media; the event shows the target from the playable start.
            let target = min(max(media.startTime + offset, media.startTime), media.endTime)
            record(.seek, value: session.presentationTime(target))
            handle(session.seek(to: target, now: clock))
        case .pause(let duration):
            record(.pause, value: source == .script || duration.isFinite ? duration : nil)
            handle(session.pause(now: clock))
            if source == .viewer, duration.isFinite { script.scheduleResume(at: clock + duration) }
        case .rate(let rate):
            record(.rate, value: rate)
            handle(session.setRate(rate, now: clock))
        case .play:
            record(.play, value: nil)
            handle(session.play(now: clock))
        }
    }
}
