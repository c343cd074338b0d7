/// A response to send: status, headers and a body.
///
/// `Content-Length`, `Date`, `Connection` and the request id are added by the server when it
/// serialises the response; handlers set only what is theirs.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        /// A complete body; `Content-Length` is derived from it.
        case bytes([UInt8])
        /// A body produced over time (e.g. Server-Sent Events), sent with chunked transfer coding.
        case stream(HTTPBodyStream)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body
    /// A low-cardinality name of the route that produced this response (e.g. `GET /v1/boards/{boardId}`),
    /// used for metrics and logs; never the raw path.
    public var route: String

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], route: String = "") {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
        self.route = route
    }

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), stream: HTTPBodyStream, route: String = "") {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
        self.route = route
    }

    /// The size of a complete body, or nil for a stream.
    public var contentLength: Int? {
        if case .bytes(let bytes) = body { return bytes.count }
        return nil
    }
}
