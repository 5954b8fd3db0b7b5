#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// SIGHUP reloads `--config.file` (the Prometheus exporters' convention) instead of stopping the exporter:
/// delivered through a Dispatch source, so the reload runs on a queue, never in a signal handler.
package final class ReloadSignal: Sendable {
    private let box: Mutex<(any DispatchSourceSignal)?>

    /// Starts calling `reload` on every SIGHUP.
    package init(reload: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "bufprobe.reload"))
        source.setEventHandler(handler: reload)
        source.resume()
        box = Mutex(source)
    }

    /// Stops listening and gives SIGHUP its default action back.
    package func uninstall() {
        box.withLock { source in
            source?.cancel()
            source = nil
        }
        signal(SIGHUP, SIG_DFL)
    }
}
