public import ArgumentParser
import BufprobeCommands
import BufprobeServe
import CheckEngine
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import MediaIO
import PlaybackModel
import ProgressLine
import ServiceLifecycle
import BufprobeOutput
import InputReading

/// `bufprobe serve`: a Prometheus exporter in the blackbox-exporter pattern. Prometheus scrapes
/// `/probe?target=URL`, the exporter runs one `check` of the target and answers its metrics; it keeps no
/// state between requests, so it scales by running more replicas behind one address.
public struct Serve: AsyncParsableCommand {
    /// The help text, with the endpoints and exit codes.
    public static let configuration = CommandConfiguration(
        // Named here: ArgumentParser would otherwise derive it through reflection at every start.
        commandName: "serve",
        abstract: "Run a Prometheus exporter: GET /probe?target=URL checks one stream and answers its metrics.",
        usage: "bufprobe serve [<options>]",
        discussion: """
            Examples:
              bufprobe serve --allow-target 'https://cdn\\.example\\.net/.*'
              curl 'http://127.0.0.1:9788/probe?target=https://cdn.example.net/a.m3u8'
              bufprobe serve --listen 0.0.0.0:9788 --max-parallel 64 --deny-private
              bufprobe serve --config.file modules.yml --config.check

            GET /probe?target=URL runs one check of the target, exactly as bufprobe check does; more \
            parameters: duration=S, timeout=S, variant=best|lowest|N|rate, all_variants=true \
            (--all-variants), module=NAME (a module of --config.file), debug=true (answer the check's log, \
            metrics and settings as text instead). It answers its metrics in the Prometheus text format (bufprobe_probe_success, \
            bufprobe_verdict{verdict=...}, bufprobe_stalls, ...). The check is bounded by the scrape's \
            X-Prometheus-Scrape-Timeout-Seconds header (10 s without one, 120 s at most) less 0.5 s: duration \
            (default: all of that time) and timeout (default 10s) are capped at it (with all_variants=true \
            a third of it each, and the validation of the variants ends within the last third). GET /metrics answers the exporter's own metrics; GET / lists the last 100 probes with links to \
            their logs (GET /logs?id=N); POST /-/reload reads --config.file and --web.config.file's users again (as SIGHUP does when either \
            is given; a bad file keeps the previous configuration). A bad parameter is answered \
            400, a refused target 403, a request beyond --max-parallel checks 503 (Retry-After: 1).

            Targets: network URLs (http, https, hls+http, rtmp, srt...), all of them unless --allow-target \
            is given; a local file only as file:/absolute/path and only when a pattern that starts with \
            file: matches it; no other local input. With --allow-target, every URL the check requests for \
            the target (variants, renditions, segments, keys, init sections, DASH base URLs and templates, \
            each HTTP redirect) must match a pattern too, and --deny-private refuses private addresses \
            after name resolution: a refused URL is not requested; it is a warning and counts in \
            bufprobe_refused_requests{reason}.

            One line per request on stderr. SIGTERM or Ctrl-C stops accepting connections, lets the checks \
            in flight end (each within its budget) and exits 0; a second signal exits at once.

            Exit codes: 0 stopped by a signal after the checks in flight ended (with --config.check: the file is \
            valid); 1 the address could not be listened on, or --config.file is not valid; 64 usage error; 128 + signal number when the checks did not end in time or on a \
            second signal.

            Clients: a connection must send its complete request head within --header-timeout of being \
            accepted (or of the first byte of a later request on it) and is closed after 60 s idle between \
            requests; at most --max-connections-per-client from one address and --max-connections in all; from \
            90 % of --max-connections on, each new connection closes the one that has waited longest for a \
            request, and at an address's cap, that address's longest-waiting one, so /metrics and /-/healthy \
            keep answering while any connection is only waiting, whoever shares the poller's address.
            """)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The address to listen on, HOST:PORT (port 0: any free port).", valueName: "host:port"),
        transform: { text in
            // The engine's module names no command-line parser: the sentence becomes ArgumentParser's error here.
            guard let address = ListenAddress(parsing: text) else { throw ValidationError(ListenAddress.refusal(of: text)) }
            return address
        })
    var listen = ListenAddress.default

    @Option(parsing: .unconditional, help: ArgumentHelp("Run at most N checks at once; answer 503 beyond (1 to 1024). A live playlist is kept as its last 5,000 segments, its first load included, so a check costs at most \(Exporter.memoryPerCheck >> 20) MiB however its playlists grow and the peak is \(Exporter.memoryPerCheck >> 20) MiB x N plus the exporter's own; a check with all_variants=true holds up to \(Int64(VariantProber.concurrency) * VariantProber.segmentBytes >> 20) MiB more of fetched segments (docs/monitoring.md, Scaling).", valueName: "N"))
    var maxParallel = 8

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection whose request head has not arrived within this long (default 10s; at most 5m).",
            valueName: "duration"),
        transform: Seconds.argument)
    var headerTimeout = Seconds(10)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Client connections open at once at most (default: the larger of 1024 and twice the per-client cap).", valueName: "N"))
    var maxConnections: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Connections open at once from one client address at most (default: --max-parallel + 64).", valueName: "N"))
    var maxConnectionsPerClient: Int?

    @Option(
        name: .customLong("allow-target"),
        help: ArgumentHelp(
            "Probe only targets this regular expression matches whole (repeatable; default: every network URL).",
            valueName: "regex"))
    var allowTargets: [String] = []

    @Flag(
        name: .customLong("deny-private"),
        help: "Refuse every request to a loopback, private, link-local or cloud-metadata address (169.254.169.254), checked after name resolution, for the target and everything it leads to, redirects included.")
    var denyPrivate = false

    @Option(
        name: .customLong("config.file"),
        help: ArgumentHelp(
            "A YAML file of named modules (module=NAME on /probe): policy, player, timeout, duration, headers, user_agent, allow_targets, cmcd. SIGHUP and POST /-/reload read it again.",
            valueName: "path"))
    var configFile: String?

    @Option(
        name: .customLong("web.config.file"),
        help: ArgumentHelp(
            "A YAML file of the Prometheus exporters' web configuration: tls_server_config (cert_file, key_file) serves HTTPS; basic_auth_users (user: bcrypt hash) requires basic authentication on every endpoint. SIGHUP and POST /-/reload read the users again; the certificate is read only at start.",
            valueName: "path"))
    var webConfigFile: String?

    @Flag(name: .customLong("config.check"), help: "Check --config.file and exit: 0 when it is valid, 1 (with one sentence) when not.")
    var configCheck = false

    @Flag(name: .shortAndLong, help: "Show FFmpeg's own log and the HTTP server's on stderr.")
    var verbose = false

    /// The most checks at once: each holds a thread, a connection and about 1 MB (Benchmarks/serve-bench.sh);
    /// the open-file limit is checked against it at start.
    static let maxParallelLimit = 1024
    /// The longest `--header-timeout`.
    static let headerTimeoutLimit = 300.0
    /// Seconds a connection may wait between requests (Prometheus keeps connections open between scrapes).
    static let idleTimeout = 60.0

    /// Creates the command with its defaults (ArgumentParser fills in the options).
    public init() {}

    /// Rejects option values the exporter cannot use, with a sentence naming the option (exit 64).
    public func validate() throws {
        guard (1...Self.maxParallelLimit).contains(maxParallel) else {
            throw ValidationError("--max-parallel must be between 1 and \(Self.maxParallelLimit), got \(maxParallel).")
        }
        do { _ = try TargetPolicy(patterns: allowTargets) } catch { throw ValidationError(error.description) }
        guard headerTimeout.value > 0, headerTimeout.value <= Self.headerTimeoutLimit else {
            throw ValidationError("--header-timeout must be more than 0 seconds and at most 5m, got \(headerTimeout).")
        }
        for (name, value) in [("--max-connections", maxConnections), ("--max-connections-per-client", maxConnectionsPerClient)] {
            if let value, !(1...1_000_000).contains(value) {
                throw ValidationError("\(name) must be between 1 and 1000000, got \(value).")
            }
        }
        if configCheck, configFile == nil { throw ValidationError("--config.check needs --config.file.") }
    }

    /// The client limits the options give.
    var clientLimits: ClientConnections.Limits {
        let perClient = maxConnectionsPerClient ?? maxParallel + 64
        return ClientConnections.Limits(
            headerTimeout: headerTimeout.value, idleTimeout: Self.idleTimeout,
            total: maxConnections ?? max(1024, 2 * perClient), perClient: perClient)
    }

    /// Serves until SIGTERM, SIGINT, SIGHUP or SIGQUIT, then lets the checks in flight end.
    public func run() async throws {
        // Many checks read playlists of up to 16 MiB at once: freed, they must leave the process (`LargeBlocks`).
        LargeBlocks.returnToSystem()
        var configured: TargetPolicy
        do { configured = try TargetPolicy(patterns: allowTargets) } catch { throw ValidationError(error.description) }
        configured.denyPrivate = denyPrivate
        let policy = configured
        var config = ExporterConfig()
        if let configFile {
            do {
                config = try ExporterConfig.load(path: configFile)
            } catch {
                Diagnostics.error(error.sentence)
                throw ExitCode(1)
            }
            if configCheck {
                let names = config.modules.keys.sorted()
                _ = StandardStreams.writeOutput(
                    "\(configFile) is valid: \(names.count) module(s)\(names.isEmpty ? "" : ": " + names.joined(separator: ", ")).\n")
                return
            }
        }
        var web = WebConfig()
        if let webConfigFile {
            do { web = try WebConfig.load(path: webConfigFile) } catch {
                Diagnostics.error(error.sentence)
                throw ExitCode(1)
            }
        }
        let store = ConfigStore(path: configFile, config: config)
        let level: Logger.Level = verbose ? .trace : .critical
        let runner = CheckRunner(logger: Logger(label: "bufprobe") { LiveLineLogHandler(label: $0, line: nil, logLevel: level) })
        let slots = CheckSlots(limit: maxParallel)
        let limits = clientLimits
        let files = OpenFileLimit.needed(maxParallel: maxParallel, connections: limits.total)
        if let available = OpenFileLimit.raise(), available < files {
            throw ValidationError(
                "--max-parallel \(maxParallel) and \(limits.total) connections need up to \(files) open files, but this process may open \(available) (ulimit -n): raise the limit, or lower --max-parallel or --max-connections.")
        }
        let connections = ClientConnections(limits: limits)
        let headTimeout = headerTimeout
        let auth = BasicAuth(users: web.users, path: webConfigFile)
        var exporter = Exporter(runner: runner, policy: policy, slots: slots, config: store, auth: auth)
        exporter.connections = connections
        let serverLogger = Logger(label: "hummingbird") { LiveLineLogHandler(label: $0, line: nil, logLevel: verbose ? .debug : .error) }
        let address = listen
        let http = HTTP1Channel.Configuration(
            // Idle connections are ClientConnections' (its idle timeout, and eviction near the cap).
            idleTimeout: nil,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
        let tls = web.tls.map { TLSChannelConfiguration(tlsConfiguration: $0) }
        // The connection guard sits outside TLS: a handshake that never ends is held to the header deadline too.
        let server: HTTPServerBuilder = if let tls {
            HTTPServerBuilder { responder in
                GuardedChildChannel(
                    base: try TLSChannel(HTTP1Channel(responder: responder, configuration: http), configuration: tls),
                    connections: connections)
            }
        } else {
            HTTPServerBuilder { responder in
                GuardedChildChannel(base: HTTP1Channel(responder: responder, configuration: http), connections: connections)
            }
        }
        let security = (web.tls == nil ? "" : "; HTTPS") + (web.users.isEmpty ? "" : "; basic authentication for \(web.users.count) user(s)")
        let app = Application(
            responder: exporter,
            server: server,
            // No availableConnectionsDelegate: it stops accepting at its cap, which locks every client out.
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: "bufprobe",
                // A burst of new connections waits in the kernel's queue, not in SYN retries a second
                // apart (the kernel caps it at net.core.somaxconn).
                backlog: 4096),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                ExporterLog.note(
                    "bufprobe \(BufprobeVersion.string) serving on \(ListenAddress(host: address.host, port: port)): at most \(slots.limit) checks at once, \(limits.total) connections (\(limits.perClient) per client address), request heads within \(headTimeout); \(policy.summary)\(security).")
            },
            logger: serverLogger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [], logger: serverLogger))
        // The project's one signal rule: the first signal starts a graceful shutdown (no new connections,
        // the checks in flight end within their budget); the grace covers a check that never returns, and
        // a second signal ends the process at once.
        // With a configuration file (or a web configuration file), SIGHUP reloads it instead of stopping
        // (as Prometheus exporters do).
        let reloads = configFile != nil || webConfigFile != nil
        let reloader = reloads ? ReloadSignal { [configFile] in
            if let path = configFile {
                switch store.reload() {
                case .success(let loaded): ExporterLog.note("SIGHUP: reloaded \(path): \(loaded.modules.count) module(s).")
                case .failure(let error): ExporterLog.note("SIGHUP: reload failed, the previous configuration stays: \(error.sentence)")
                }
            }
            _ = Exporter.reloadUsers(auth, trigger: "SIGHUP: ")
        } : nil
        defer { reloader?.uninstall() }
        let signals = InterruptHandler.signals.filter { !reloads || $0 != SIGHUP }
        let interrupt = InterruptHandler.install(line: nil, grace: .seconds(ProbeRequest.longestCheck + 5), signals: signals) {
            ExporterLog.note("stopping: no new connections; waiting for \(slots.inFlight) check(s) in flight.")
            Task { await group.triggerGracefulShutdown() }
        }
        defer { interrupt.uninstall() }
        do {
            try await group.run()
        } catch {
            if interrupt.exitStatus == nil {
                Diagnostics.error("could not serve on \(address): \(Self.sentence(for: error))")
                throw ExitCode(1)
            }
        }
        ExporterLog.note("stopped.")
    }

    /// The error's words without a trailing period (NIO's bind errors: "bind(descriptor:ptr:bytes:):
    /// Address already in use (errno: 98)").
    private static func sentence(for error: any Error) -> String {
        var text = "\(error)"
        if text.contains("Address already in use") { text = "the address is already in use; choose another port with --listen." }
        return text.hasSuffix(".") ? text : text + "."
    }
}
