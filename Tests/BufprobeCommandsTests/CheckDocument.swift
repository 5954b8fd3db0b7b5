import Foundation

/// The parts of `check --json` the tests read.
struct CheckDocument: Decodable {
    struct Stall: Decodable {
        var position: Double
        var start: Double
        var duration: Double
    }
    struct Variant: Decodable {
        var index: Int
        var bandwidth: Int64?
        var width: Int?
        var height: Int?
        var selected: Bool
        var fetched: String
    }
    var schemaVersion: Int
    var source: String
    var verdict: String
    var reason: String
    var openTime: Double?
    var firstPacketTime: Double?
    var startupDelay: Double?
    var throughputBps: Double?
    var realtimeFactor: Double?
    var declaredBitRate: Double?
    var measuredBitRate: Double?
    var peakBitRate: Double?
    var stallCount: Int
    var stallTime: Double
    var stalls: [Stall]
    var loadedRanges: [[Double]]
    var skippedHoles: [[Double]]
    var timeOrigin: Double?
    var sampledDuration: Double
    var live: Bool
    var complete: Bool
    var bytesReceived: Int64?
    var variants: [Variant]
    var warnings: [String]
    var playlistHealth: PlaylistHealth?

    struct PlaylistHealth: Decodable {
        struct Event: Decodable {
            var kind: String
            var at: Double
            var mediaSequence: Int?
            var playlist: String
            var message: String
        }
        var url: String?
        var playlists: [String]
        var reloads: Int
        var events: [Event]
    }
    var variantChecks: [VariantCheck]?

    /// One `variant_checks[]` entry (`check --all-variants`).
    struct VariantCheck: Decodable {
        struct Problem: Decodable {
            var kind: String
            var message: String
        }
        struct Measured: Decodable {
            var width: Int?
            var height: Int?
            var frameRate: Double?
            var peakBitRate: Double?
            var averageBitRate: Double?
            var segmentsMeasured: Int
        }
        var index: Int
        var uri: String
        var measured: Measured
        var problems: [Problem]
        var kinds: [String] { problems.map(\.kind) }
    }

    static func decode(_ text: String) throws -> CheckDocument {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(CheckDocument.self, from: Data(text.utf8))
    }
}
