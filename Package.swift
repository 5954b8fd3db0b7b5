// swift-tools-version:6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "bufprobe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bufprobe", targets: ["BufprobeCLI"]),
        // The library a Swift program uses: `import Bufprobe` gives probe, simulate, check and the model.
        .library(name: "Bufprobe", targets: ["Bufprobe"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        .library(name: "PlaybackModel", targets: ["PlaybackModel"]),
        .library(name: "ProgressLine", targets: ["ProgressLine"]),
        .library(name: "CheckEngine", targets: ["CheckEngine"]),
        .library(name: "BufprobeCommands", targets: ["BufprobeCommands"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `serve` only: HTTP and the Prometheus text format. No default traits: the exporter reads no
        // swift-configuration sources.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `serve` only, already under Hummingbird: the channel handlers that bound slow and idle clients.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.25.0"),
        // `serve --web.config.file` only: bcrypt for basic_auth_users (HummingbirdBcrypt, a small C library).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        // `swift package generate-documentation` (scripts/check-docs.sh) only: the DocC catalogs of the
        // library targets. A command plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System library over FFmpeg; only MediaIO imports it.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]),
                .brew(["ffmpeg"]),
            ]
        ),
        // C code Swift cannot write (the av_log callback takes a va_list); compiled, not a header of inlines.
        .target(name: "CFFmpegShims", dependencies: ["CFFmpeg"]),
        // Reading media (FFmpeg behind it), and the one clock (`IOClock`), alarm and thread helper
        // (`BlockingThread`) every wait and blocking call above it uses.
        .target(
            name: "MediaIO",
            dependencies: [
                "CFFmpeg",
                "CFFmpegShims",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        .target(name: "PlaybackModel", swiftSettings: upcoming),
        .target(
            name: "ProgressLine",
            dependencies: ["PlaybackModel", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming
        ),
        // What every command writes with: the JSON writer, text formatting, bufprobe's version, XML text and
        // the stdout/stderr writer. Shared by the engines and the commands, so no engine imports another
        // for them.
        .target(
            name: "BufprobeOutput",
            dependencies: ["MediaIO", "PlaybackModel", "ProgressLine", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming
        ),
        // How the engines open and read an input, and the rules they share about it: naming the input
        // (`InputKind`), refusing what is not media (`InputCheck`, `URLCheck`), the sentences of FFmpeg's and
        // the interrupter's errors, packets into the model's, handing packets to a worker (`PacketWorker`), an
        // MP4's index at the end, missing codec parameters and truncation. Shared by
        // check, probe and simulate, so no engine imports another for them.
        .target(
            name: "InputReading",
            dependencies: ["BufprobeOutput", "MediaIO", "PlaybackModel"],
            swiftSettings: upcoming
        ),
        // `check`'s engine: the pure check machine, its driver (MediaInput, a thread, a clock) and the report.
        .target(
            name: "CheckEngine",
            dependencies: [
                "BufprobeOutput", "InputReading", "MediaIO", "PlaybackModel", "ProgressLine",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // `probe`'s engine: the reader (a thread, MediaInput, the analysis worker), the diagnostics and the
        // report, and its library face (`MediaProbe`).
        .target(
            name: "ProbeEngine",
            dependencies: ["BufprobeOutput", "InputReading", "MediaIO", "PlaybackModel"],
            swiftSettings: upcoming
        ),
        // `simulate`'s engine: the media read into units (file, HLS, DASH, synthetic), the plan merged from
        // the options and a script, the network and traces, the session run in virtual time, and the report
        // with its text, JSON and SVG plot; its library face is `NetworkSimulation`.
        .target(
            name: "SimulateEngine",
            dependencies: [
                "BufprobeOutput", "InputReading", "MediaIO", "PlaybackModel", "ProgressLine",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: upcoming
        ),
        // `validate`'s engine: the catalogue of rules as data, the pure rule functions over what was read, the
        // findings, and the one driver that reads an HLS stream's playlists and segments.
        .target(
            name: "ValidateEngine",
            dependencies: ["BufprobeOutput", "InputReading", "MediaIO", "PlaybackModel"],
            swiftSettings: upcoming
        ),
        .target(
            name: "BufprobeCommands",
            dependencies: [
                "BufprobeOutput", "CheckEngine", "InputReading", "MediaIO", "PlaybackModel", "ProbeEngine", "ProgressLine",
                "SimulateEngine", "ValidateEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // `bufprobe serve`, the Prometheus exporter: the one target that brings SwiftNIO (through
        // Hummingbird); every other target stays free of it.
        .target(
            name: "BufprobeServe",
            dependencies: [
                "BufprobeOutput", "CheckEngine", "InputReading", "MediaIO", "PlaybackModel", "ProgressLine", "ValidateEngine",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: upcoming
        ),
        // The library face: one module re-exporting the engines' public API (no code of its own).
        .target(
            name: "Bufprobe",
            dependencies: [
                "CheckEngine", "PlaybackModel", "ProbeEngine", "SimulateEngine", "ValidateEngine",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // The executable `bufprobe` (the product's name; the target is named apart from the `Bufprobe`
        // library, which a case-insensitive file system could not tell from it).
        .executableTarget(
            name: "BufprobeCLI",
            dependencies: [
                "BufprobeCommands", "BufprobeOutput", "BufprobeServe", "CheckEngine", "InputReading", "MediaIO", "PlaybackModel",
                "ProgressLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "bufprobe-bench",
            dependencies: ["PlaybackModel"],
            path: "Benchmarks/ModelBench",
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "mediaio-read-loop",
            dependencies: ["MediaIO"],
            path: "Benchmarks/MediaIOReadLoop",
            swiftSettings: upcoming
        ),
        // Helpers shared by the test targets: sample paths, ffprobe reference figures, running the binary.
        .target(
            name: "TestSupport", dependencies: ["MediaIO", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport", swiftSettings: upcoming),
        .testTarget(
            name: "MediaIOTests",
            dependencies: ["MediaIO", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming),
        .testTarget(
            name: "PlaybackModelTests",
            dependencies: [
                "PlaybackModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(name: "ProgressLineTests", dependencies: ["ProgressLine", "TestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "CheckEngineTests",
            dependencies: ["BufprobeOutput", "CheckEngine", "InputReading", "MediaIO", "PlaybackModel", "TestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "ValidateEngineTests",
            dependencies: ["BufprobeOutput", "InputReading", "MediaIO", "TestSupport", "ValidateEngine"],
            swiftSettings: upcoming),
        .testTarget(
            name: "BufprobeServeTests",
            dependencies: [
                "BufprobeOutput", "BufprobeServe", "BufprobeCommands", "CheckEngine", "TestSupport",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "BufprobeCommandsTests",
            dependencies: [
                "Bufprobe", "BufprobeCommands", "BufprobeOutput", "CheckEngine", "InputReading", "MediaIO", "PlaybackModel",
                "ProbeEngine", "SimulateEngine", "TestSupport", "BufprobeCLI",
                // CIRecipeTests reads docs/ci.md's CI jobs.
                .product(name: "Yams", package: "Yams"),
            ],
            // Helper servers (Python scripts) the check tests start; run from the source tree, not bundled.
            exclude: ["Fixtures"],
            swiftSettings: upcoming
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer target of the probe path (Fuzz/README.md). It exists only when BUFPROBE_FUZZ is set, as
// Fuzz/run-fuzz.sh does: it calls libFuzzer's driver, so it links only with `-sanitize=fuzzer`, which a
// plain `swift build` or `swift test` does not pass.
if Context.environment["BUFPROBE_FUZZ"] != nil {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(
            name: "bufprobe-fuzz",
            dependencies: [
                "BufprobeCommands", "BufprobeOutput", "CheckEngine", "CLibFuzzer", "MediaIO", "ProbeEngine", "ProgressLine",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/Sources",
            swiftSettings: upcoming
        ),
    ]
}
