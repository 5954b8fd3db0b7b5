public import Testing

/// FFmpeg's log callback is one per process, and every test target runs in one process: a test that
/// installs a log sink (FFmpegLogTests, and every public API call that installs bufprobe's) holds this
/// lock so that no other installs over it while it runs.
public actor FFmpegLogLock {
    /// The one lock.
    public static let shared = FFmpegLogLock()

    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
    }

    /// Runs `body` holding the lock.
    public static func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await shared.acquire()
        do {
            let result = try await body()
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }
}

/// The trait that runs each test case of a suite holding `FFmpegLogLock`: `@Suite("...", .ffmpegLog)`.
public struct FFmpegLogSerialized: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await FFmpegLogLock.run { try await function() }
    }
}

extension Trait where Self == FFmpegLogSerialized {
    /// Each test case holds `FFmpegLogLock`: no other test installs an FFmpeg log sink meanwhile.
    public static var ffmpegLog: Self { Self() }
}
