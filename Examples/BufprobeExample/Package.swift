// swift-tools-version:6.1
import PackageDescription

// A Swift program that uses bufprobe as a library: it depends on the bufprobe package by path (this
// repository's root) and uses its public API, not the command line.
let package = Package(
    name: "BufprobeExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "bufprobe", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "BufprobeExample",
            dependencies: [
                .product(name: "Bufprobe", package: "bufprobe"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
