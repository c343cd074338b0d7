import HTTPServer

/// An error the API answers with: status, a human detail, and for validation errors the
/// offending fields as JSON Pointers. Rendered as `application/problem+json` (RFC 9457).
struct APIError: Error, Sendable, CustomStringConvertible {
    struct Violation: Sendable, Equatable {
        /// A JSON Pointer (RFC 6901) into the request body, or `/query/<name>` for a query parameter.
        var pointer: String
        var detail: String
    }

    var status: HTTPStatus
    var detail: String
    var violations: [Violation]
    /// Extra response headers, e.g. `Retry-After` or `Allow`.
    var headers: [(String, String)]

    init(_ status: HTTPStatus, _ detail: String, violations: [Violation] = [], headers: [(String, String)] = []) {
        self.status = status
        self.detail = detail
        self.violations = violations
        self.headers = headers
    }

    var description: String { "\(status.code) \(detail)" }

    /// A stable problem type URI per status, documented in openapi.yaml.
    var type: String {
        switch status.code {
        case 400: "/problems/bad-request"
        case 401: "/problems/unauthorized"
        case 404: "/problems/not-found"
        case 405: "/problems/method-not-allowed"
        case 409: "/problems/conflict"
        case 412: "/problems/precondition-failed"
        case 413: "/problems/content-too-large"
        case 415: "/problems/unsupported-media-type"
        case 422: "/problems/validation"
        case 429: "/problems/rate-limited"
        case 503: "/problems/unavailable"
        default: "about:blank"
        }
    }

    static func notFound(_ what: String) -> APIError { APIError(.notFound, "\(what) not found") }
    static func validation(_ violations: [Violation]) -> APIError {
        let detail = violations.count == 1 ? violations[0].detail : "\(violations.count) fields are invalid"
        return APIError(.unprocessableContent, detail, violations: violations)
    }
}
