import Foundation
import TestSupport

/// A FIFO fed with a sample at `bytesPerSecond` by a child process: a slow input for probe.
final class SlowInput {
    let path: String
    private let feeder: Process

    init(sample: String, bytesPerSecond: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("bufprobe-slow-\(UUID().uuidString).ts").path
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        feeder.arguments = ["python3", "-c", """
            import sys, time
            src, dst, rate = sys.argv[1], sys.argv[2], int(sys.argv[3])
            try:
                with open(src, 'rb') as f, open(dst, 'wb') as out:
                    while True:
                        chunk = f.read(2048)
                        if not chunk: break
                        out.write(chunk); out.flush()
                        time.sleep(len(chunk) / rate)
            except BrokenPipeError:
                pass
            """, BufprobeProcess.sample(sample), path, String(bytesPerSecond)]
        feeder.standardError = FileHandle.nullDevice
        try feeder.run()
    }

    deinit {
        if feeder.isRunning { feeder.terminate() }
        unlink(path)
    }
}
