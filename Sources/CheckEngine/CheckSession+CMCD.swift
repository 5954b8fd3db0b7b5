import MediaIO

extension CheckSession {
    /// Tells `--cmcd`'s per-request keys the player's state: buffer ahead, starting up or stalled, and the
    /// played variant's declared bit rate.
    func observeForCMCD(_ reading: CheckReading) {
        guard let cmcdRequests else { return }
        let (buffered, startingUp): (Double, Bool) = machine.withLock { machine in
            guard let player = machine.session?.player else { return (0, true) }
            let waiting = switch player.state {
            case .loading, .stalled: true
            case .playing, .paused, .seeking, .ended, .failed: false
            }
            return (player.item.bufferedAhead, waiting)
        }
        cmcdRequests.observe(
            bufferedAhead: buffered, startingUp: startingUp, bitRate: reading.declaredBitRate.flatMap { Int(exactly: $0.value) })
    }
}
