import JSONKit

/// What the server calls for each complete request.
///
/// `handle` runs on an event-loop thread and must not block: cheap answers may be sent at once,
/// anything slow (OCR, SQLite writes) is handed to other threads, which answer later through the
/// writer. Requests on one connection are answered in order: the next pipelined request is not
/// handled before the previous one is answered.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest, writer: HTTPResponseWriter)

    /// Asked once per request as soon as its head is parsed, before the body is read: the largest
    /// body accepted (so an oversized body is refused with 413 unread), and whatever the handler
    /// worked out from the head (its route), handed back in `HTTPRequest.admission`.
    func admit(_ head: HTTPRequestHead) -> HTTPAdmission

    /// Builds the response for a protocol-level error found by the server (bad framing, timeouts,
    /// overload), so that every error body has the application's format.
    func errorResponse(status: HTTPStatus, detail: String) -> HTTPResponse
}

extension HTTPHandler {
    public func admit(_ head: HTTPRequestHead) -> HTTPAdmission { HTTPAdmission() }

    public func errorResponse(status: HTTPStatus, detail: String) -> HTTPResponse {
        ProblemResponse.make(status: status, detail: detail)
    }
}

/// Minimal `application/problem+json` (RFC 9457) bodies for errors the server produces itself.
public enum ProblemResponse {
    public static func make(status: HTTPStatus, detail: String) -> HTTPResponse {
        var body: [UInt8] = []
        JSONWriter.appendLiteral("{\"type\":\"about:blank\",\"title\":", to: &body)
        JSONWriter.appendString(status.reason, to: &body)
        JSONWriter.appendLiteral(",\"status\":", to: &body)
        JSONWriter.appendInteger(status.code, to: &body)
        JSONWriter.appendLiteral(",\"detail\":", to: &body)
        JSONWriter.appendString(detail, to: &body)
        JSONWriter.appendLiteral("}", to: &body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
