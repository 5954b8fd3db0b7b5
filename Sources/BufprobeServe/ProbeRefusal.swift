/// Why `serve` does not run a check for a request: the HTTP status and one sentence, which is the body
/// of the answer and the request's log line.
package struct ProbeRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of refusal, each with its status and the `reason` label of
    /// `bufprobe_exporter_failures_total`.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// 400: a missing, unknown, repeated or malformed parameter.
        case badRequest = "bad_request"
        /// 403: a target the allow-list or the local-file rule refuses.
        case forbidden
        /// 414: a query longer than `ProbeRequest.longestQuery`.
        case uriTooLong = "uri_too_long"
        /// 503: `--max-parallel` checks are running already.
        case overloaded

        /// The HTTP status code.
        package var status: Int {
            switch self {
            case .badRequest: 400
            case .forbidden: 403
            case .uriTooLong: 414
            case .overloaded: 503
            }
        }
    }

    /// The kind.
    package var kind: Kind
    /// One sentence.
    package var sentence: String

    /// A refusal of `kind` saying `sentence`.
    package init(_ kind: Kind, _ sentence: String) {
        self.kind = kind
        self.sentence = sentence
    }

    /// The sentence.
    package var description: String { sentence }
}
