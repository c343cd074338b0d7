/// The head of a request: everything before the body (RFC 9112 §2.1).
public struct HTTPRequestHead: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request-target exactly as sent (origin-form, or `*`).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// The path part of the target, still percent-encoded.
    public var path: Substring {
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) { return target[..<q] }
        return target[...]
    }

    /// The query part of the target without `?`, or nil.
    public var query: Substring? {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return target[target.utf8.index(after: q)...]
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3):
    /// HTTP/1.1 persists unless `Connection: close`; HTTP/1.0 closes unless `Connection: keep-alive`.
    public var keepAlive: Bool {
        let tokens = headers.tokens("connection")
        switch version {
        case .http1_1: return !tokens.contains("close")
        case .http1_0: return tokens.contains("keep-alive") && !tokens.contains("close")
        }
    }

    /// `Expect: 100-continue` (RFC 9110 §10.1.1); only meaningful for HTTP/1.1.
    public var expectsContinue: Bool {
        version == .http1_1 && headers["expect"]?.lowercased() == "100-continue"
    }
}

/// A complete request: head, body, and facts about the connection it came on.
public struct HTTPRequest: Sendable {
    public var head: HTTPRequestHead
    public var body: [UInt8]
    /// The peer's IP address as text.
    public var remoteAddress: String
    /// The request id: the client's `X-Request-Id` when it is sane, else generated.
    public var requestID: String
    /// What the handler's `admit` returned for this request's head (nil when it was not asked).
    public var admission: HTTPAdmission?

    public init(head: HTTPRequestHead, body: [UInt8] = [], remoteAddress: String = "", requestID: String = "",
                admission: HTTPAdmission? = nil) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
        self.requestID = requestID
        self.admission = admission
    }

    public var method: HTTPMethod { head.method }
    public var headers: HTTPHeaders { head.headers }
    public var path: Substring { head.path }
    public var query: Substring? { head.query }
}
