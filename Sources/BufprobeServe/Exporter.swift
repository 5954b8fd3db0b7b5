package import CheckEngine
import Foundation
import HTTPTypes
package import MediaIO
import InputReading
import ValidateEngine
package import Hummingbird
import ProgressLine

/// The HTTP side of `serve`: `GET /probe?target=URL` runs one check through `CheckRunner` (exactly as
/// `bufprobe check` does) and answers its metrics (`ProbeMetrics`); `GET /metrics` answers the exporter's
/// own (`ExporterMetrics`); `GET /` a page naming both and listing the recent probes (`RecentProbes`, their logs at `/logs?id=N`);
/// `POST /-/reload` reads `--config.file` again (`ConfigStore`). Every request gets one log line on stderr
/// (`ExporterLog`). Requests are hostile: the query is bounded and parsed once (`ProbeRequest`), the
/// target checked against the allow-list (`TargetPolicy`), and the checks at once bounded (`CheckSlots`).
package struct Exporter: HTTPResponder {
    /// Hummingbird's plain request context.
    package typealias Context = BasicRequestContext

    /// Runs the checks.
    package let runner: CheckRunner
    /// The allow-list.
    package let policy: TargetPolicy
    /// The check slots (`--max-parallel`).
    package let slots: CheckSlots
    /// The exporter's own metrics.
    package let metrics: ExporterMetrics
    /// The client connections, whose metrics `/metrics` adds when set.
    package var connections: ClientConnections?
    /// Seconds a client is told to wait after a 503.
    package static let retryAfter = 1
    // Valid field names, so never nil; optional only because HTTPField.Name validates at run time.
    private static let scrapeTimeoutField = HTTPField.Name(ProbeRequest.scrapeTimeoutHeader)
    private static let verdictField = HTTPField.Name("Bufprobe-Verdict")
    /// The exposition format's content type.
    package static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The configuration file's modules, reloadable.
    package let config: ConfigStore
    /// The recent probes, for `/` and `/logs`.
    package let recent: RecentProbes
    /// Basic authentication (`--web.config.file`'s `basic_auth_users`), off when it has no users.
    package let auth: BasicAuth

    /// An exporter running at most `slots.limit` checks at once, with the modules of `config`.
    package init(
        runner: CheckRunner, policy: TargetPolicy, slots: CheckSlots,
        config: ConfigStore = ConfigStore(path: nil, config: ExporterConfig()), recent: RecentProbes = RecentProbes(),
        auth: BasicAuth = BasicAuth(users: [:])
    ) {
        self.runner = runner
        self.policy = policy
        self.slots = slots
        self.metrics = ExporterMetrics(slots: slots)
        self.config = config
        self.recent = recent
        self.auth = auth
    }

    /// Answers one request and logs it.
    package func respond(to request: Request, context: Context) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = ExporterLog.Outcome()
        let response: Response
        if !auth.admits(authorization: request.headers[.authorization]) {
            var answer = Self.text(.unauthorized, "this exporter needs basic authentication (--web.config.file).\n")
            answer.headers[.wwwAuthenticate] = "Basic realm=\"bufprobe\""
            ExporterLog.request(
                method: request.method.rawValue, path: request.uri.path, status: answer.status.code, outcome: outcome,
                seconds: (clock.now - start).seconds)
            return answer
        }
        switch (request.uri.path, request.method) {
        case ("/probe", .get): response = await probe(request, outcome: &outcome)
        case ("/metrics", .get):
            response = Self.text(.ok, metrics.exposition() + (connections?.exposition() ?? "") + config.exposition(), contentType: Self.metricsContentType)
        case ("/-/healthy", .get): response = Self.text(.ok, "Healthy\n")
        case ("/", .get):
            response = Self.text(
                .ok, ExporterPages.index(recent: recent.entries, modules: ["default"] + config.config.modules.keys.sorted().filter { $0 != "default" }),
                contentType: "text/html; charset=utf-8")
        case ("/logs", .get): response = log(request)
        case ("/-/reload", .post): response = reload()
        case ("/-/reload", _):
            var answer = Self.text(.methodNotAllowed, "\(request.method) is not allowed here; use POST.\n")
            answer.headers[.allow] = "POST"
            response = answer
        case ("/probe", _), ("/metrics", _), ("/-/healthy", _), ("/", _), ("/logs", _):
            var answer = Self.text(.methodNotAllowed, "\(request.method) is not allowed here; use GET.\n")
            answer.headers[.allow] = "GET"
            response = answer
        default:
            response = Self.text(.notFound, "Not found: the exporter answers /probe?target=URL and /metrics.\n")
        }
        ExporterLog.request(
            method: request.method.rawValue, path: request.uri.path, status: response.status.code, outcome: outcome,
            seconds: (clock.now - start).seconds)
        return response
    }

    /// `/probe`: validate, take a slot, check, answer the metrics.
    private func probe(_ request: Request, outcome: inout ExporterLog.Outcome) async -> Response {
        let parsed: ProbeRequest
        do {
            parsed = try ProbeRequest(
                query: request.uri.query,
                scrapeTimeout: Self.scrapeTimeoutField.flatMap { request.headers[$0] })
        } catch {
            return refuse(error, outcome: &outcome)
        }
        outcome.target = parsed.target
        if let sentence = policy.refusal(for: parsed.target) {
            return refuse(ProbeRefusal(.forbidden, sentence), outcome: &outcome)
        }
        let configuration = config.config
        guard let module = configuration.module(named: parsed.module) else {
            let known = (["default"] + configuration.modules.keys.sorted().filter { $0 != "default" }).joined(separator: ", ")
            return refuse(ProbeRefusal(.badRequest, "there is no module '\(String(parsed.module?.prefix(64) ?? ""))'; the modules are \(known)."), outcome: &outcome)
        }
        if let allowList = module.allowList, let sentence = allowList.refusal(for: parsed.target) {
            return refuse(ProbeRefusal(.forbidden, "module \(module.name): " + sentence), outcome: &outcome)
        }
        var settings = parsed.settings
        module.apply(to: &settings, share: parsed.share, requestedTimeout: parsed.requestedTimeout, requestedDuration: parsed.requestedDuration)
        settings.requestPolicy = Self.requestPolicy(policy, module: module)
        guard slots.acquire() else {
            var answer = refuse(
                ProbeRefusal(.overloaded, "\(slots.limit) checks are running already (--max-parallel); try again later."),
                outcome: &outcome)
            answer.headers[.retryAfter] = String(Self.retryAfter)
            return answer
        }
        if module.validate {
            return await validate(parsed, module: module, settings: settings, outcome: &outcome)
        }
        metrics.checkStarted()
        let clock = ContinuousClock()
        let start = clock.now
        let report = await runner.report(source: parsed.target, settings: settings)
        let seconds = (clock.now - start).seconds
        slots.release()
        metrics.checkEnded(verdict: report.verdict, seconds: seconds)
        outcome.verdict = report.verdict.rawValue
        if report.verdict == .fail { outcome.reason = report.reason }
        let exposition = ProbeMetrics.exposition(of: report, probeSeconds: seconds)
        let debug = ExporterPages.debug(
            report: report, target: parsed.target, module: module, settings: settings, budget: parsed.budget, metrics: exposition)
        recent.add(target: parsed.target, module: module.name, verdict: report.verdict.rawValue, seconds: seconds, log: debug)
        var answer = parsed.debug
            ? Self.text(.ok, debug) : Self.text(.ok, exposition, contentType: Self.metricsContentType)
        if let field = Self.verdictField { answer.headers[field] = report.verdict.rawValue }
        return answer
    }

    /// `/probe` for a module with `validate: true`, a slot taken: the target validated as `bufprobe
    /// validate` does, its reading bounded by the scrape's budget (what it leaves unread is reported, not a
    /// finding) and each request by the check's timeout, under the same request policy; the answer is
    /// `ValidationMetrics`'.
    private func validate(_ parsed: ProbeRequest, module: ProbeModule, settings: CheckSettings, outcome: inout ExporterLog.Outcome) async -> Response {
        var validation = ValidationSettings()
        validation.timeout = settings.timeout
        validation.maxTime = parsed.share
        validation.options = settings.formatOptions
        let root = Interrupter(timeout: nil, policy: settings.requestPolicy)
        let run = StreamValidation(source: parsed.target, settings: validation, root: root, installsLogSink: false)
        metrics.checkStarted()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await BlockingThread.run(name: "bufprobe validate") {
            Result { () throws(ValidationFailure) in try run.run() }
        }
        let seconds = (clock.now - start).seconds
        slots.release()
        let verdict = ValidationMetrics.verdict(of: result)
        metrics.checkEnded(verdict: CheckVerdict(rawValue: verdict) ?? .fail, seconds: seconds)
        outcome.verdict = verdict
        if case .failure(let failure) = result { outcome.reason = failure.description }
        let exposition = ValidationMetrics.exposition(of: result, target: parsed.target, probeSeconds: seconds)
        let debug = ValidationMetrics.debug(of: result, target: parsed.target, module: module, budget: parsed.budget, metrics: exposition)
        recent.add(target: parsed.target, module: module.name, verdict: verdict, seconds: seconds, log: debug)
        var answer = parsed.debug ? Self.text(.ok, debug) : Self.text(.ok, exposition, contentType: Self.metricsContentType)
        if let field = Self.verdictField { answer.headers[field] = verdict }
        return answer
    }

    /// The rule for every request a check makes: the exporter's allow-list and `--deny-private`, and the
    /// module's `allow_targets` too, so that a module's list bounds what the target leads to (variants,
    /// segments, redirects), not only the target.
    package static func requestPolicy(_ policy: TargetPolicy, module: ProbeModule) -> RequestPolicy? {
        guard let moduleList = module.allowList else { return policy.requestPolicy }
        var combined = policy.requestPolicy ?? RequestPolicy()
        let exporterList = combined.admits
        combined.admits = { url in (exporterList?(url) ?? true) && moduleList.admits(url) }
        return combined
    }

    /// `/logs?id=N`: one recent probe's debug text.
    private func log(_ request: Request) -> Response {
        let query = request.uri.query ?? ""
        guard query.hasPrefix("id="), let id = Int(query.dropFirst(3)) else {
            return Self.text(.badRequest, "/logs takes id=N, the number the / page links.\n")
        }
        guard let entry = recent.entry(id: id) else {
            return Self.text(.notFound, "probe \(id) is not among the last \(recent.capacity) kept.\n")
        }
        return Self.text(.ok, entry.log)
    }

    /// `POST /-/reload`: reads `--config.file` and `--web.config.file`'s users again; a bad file keeps the
    /// old configuration (500).
    private func reload() -> Response {
        let web = Self.reloadUsers(auth)
        guard config.path != nil || web == nil else {
            let (succeeded, sentence) = web ?? (true, "")
            return Self.text(succeeded ? .ok : .internalServerError, sentence + "\n")
        }
        let webLine = web.map { $0.sentence + "\n" } ?? ""
        switch config.reload() {
        case .success(let loaded):
            ExporterLog.note("reloaded \(config.path ?? ""): \(loaded.modules.count) module(s).")
            return Self.text(web?.succeeded == false ? .internalServerError : .ok, "reloaded: \(loaded.modules.count) module(s).\n" + webLine)
        case .failure(let error):
            ExporterLog.note("reload failed, the previous configuration stays: \(error.sentence)")
            return Self.text(.internalServerError, "reload failed, the previous configuration stays: \(error.sentence)\n" + webLine)
        }
    }

    /// Reads `--web.config.file`'s basic-auth users again (`BasicAuth.reload()`) and logs the outcome; `nil`
    /// when no web configuration file was given. SIGHUP and `POST /-/reload` both call it.
    package static func reloadUsers(_ auth: BasicAuth, trigger: String = "") -> (succeeded: Bool, sentence: String)? {
        guard let path = auth.path else { return nil }
        let outcome: (Bool, String) = switch auth.reload() {
        case .success(let count): (true, "reloaded \(path): \(count) basic-auth user(s) (the TLS certificate only at start).")
        case .failure(let error): (false, "reload of the web configuration failed, the previous users stay: \(error.sentence)")
        }
        ExporterLog.note(trigger + outcome.1)
        return outcome
    }

    private func refuse(_ refusal: ProbeRefusal, outcome: inout ExporterLog.Outcome) -> Response {
        metrics.refused(refusal.kind)
        outcome.reason = refusal.sentence
        return Self.text(HTTPResponse.Status(code: refusal.kind.status), refusal.sentence + "\n")
    }

    private static func text(_ status: HTTPResponse.Status, _ body: String, contentType: String = "text/plain; charset=utf-8") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

extension Exporter {
    /// The memory one check may cost the exporter however its live playlists grow (docs/monitoring.md, "Scaling"): a
    /// live playlist is kept as its last `ResourceLimits.liveSegments` segments by FFmpeg and bufprobe alike,
    /// and one playlist (at most `ResourceLimits.playlistBytes`) is in transit at a time, so the exporter's
    /// peak is this times `--max-parallel` plus its own fixed part. The first load of a media playlist given
    /// as the target is windowed too: the check reads it and hands FFmpeg the window (`PrefetchedInput`).
    /// `all_variants=true` holds up to `VariantProber.concurrency` fetched segments of up to
    /// `VariantProber.segmentBytes` more. `ServeMemoryTests` holds eight checks of a playlist whose first
    /// load lists 300,000 entries and that grows by 10,000 a reload to it.
    package static let memoryPerCheck = 24 << 20
}
