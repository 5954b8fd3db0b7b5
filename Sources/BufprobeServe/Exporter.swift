package import BufprobeCommands
import Foundation
import HTTPTypes
package import Hummingbird
import ProgressLine

/// The HTTP side of `serve`: `GET /probe?target=URL` runs one check through `CheckRunner` (exactly as
/// `bufprobe check` does) and answers its metrics (`ProbeMetrics`); `GET /metrics` answers the exporter's
/// own (`ExporterMetrics`); `GET /` a short page naming both. Every request gets one log line on stderr
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

    /// An exporter running at most `slots.limit` checks at once.
    package init(runner: CheckRunner, policy: TargetPolicy, slots: CheckSlots) {
        self.runner = runner
        self.policy = policy
        self.slots = slots
        self.metrics = ExporterMetrics(slots: slots)
    }

    /// Answers one request and logs it.
    package func respond(to request: Request, context: Context) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = ExporterLog.Outcome()
        let response: Response
        switch (request.uri.path, request.method) {
        case ("/probe", .get): response = await probe(request, outcome: &outcome)
        case ("/metrics", .get):
            response = Self.text(.ok, metrics.exposition() + (connections?.exposition() ?? ""), contentType: Self.metricsContentType)
        case ("/-/healthy", .get): response = Self.text(.ok, "Healthy\n")
        case ("/", .get): response = Self.text(.ok, Self.index)
        case ("/probe", _), ("/metrics", _), ("/-/healthy", _), ("/", _):
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
        guard slots.acquire() else {
            var answer = refuse(
                ProbeRefusal(.overloaded, "\(slots.limit) checks are running already (--max-parallel); try again later."),
                outcome: &outcome)
            answer.headers[.retryAfter] = String(Self.retryAfter)
            return answer
        }
        metrics.checkStarted()
        let clock = ContinuousClock()
        let start = clock.now
        var settings = parsed.settings
        settings.requestPolicy = policy.requestPolicy
        let report = await runner.report(source: parsed.target, settings: settings)
        let seconds = (clock.now - start).seconds
        slots.release()
        metrics.checkEnded(verdict: report.verdict, seconds: seconds)
        outcome.verdict = report.verdict.rawValue
        if report.verdict == .fail { outcome.reason = report.reason }
        var answer = Self.text(.ok, ProbeMetrics.exposition(of: report, probeSeconds: seconds), contentType: Self.metricsContentType)
        if let field = Self.verdictField { answer.headers[field] = report.verdict.rawValue }
        return answer
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

    private static let index = """
        bufprobe exporter \(BufprobeVersion.string)
        GET /probe?target=URL[&duration=S&timeout=S&variant=best|lowest|N|rate&all_variants=true]  one check's metrics
        GET /metrics  the exporter's own metrics
        GET /-/healthy  Healthy while the exporter answers

        """
}
