import HTTPServer

/// Cross-origin resource sharing for browser clients on other origins (Fetch standard, CORS protocol).
struct CORSPolicy: Sendable {
    let origins: Set<String>
    let allowsAny: Bool

    static let allowedHeaders = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, X-Request-Id"
    static let exposedHeaders = "ETag, Location, Retry-After, X-Request-Id"

    init(origins: [String]) {
        self.origins = Set(origins.filter { $0 != "*" })
        self.allowsAny = origins.contains("*")
    }

    func allows(_ origin: String) -> Bool { allowsAny || origins.contains(origin) }

    /// Adds the CORS response headers when the request's origin is allowed.
    func decorate(_ response: HTTPResponse, origin: String?) -> HTTPResponse {
        guard let origin, allows(origin) else { return response }
        var response = response
        response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: allowsAny ? "*" : origin)
        response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: Self.exposedHeaders)
        if !allowsAny { response.headers.add(name: "Vary", value: "Origin") }
        return response
    }

    /// Answers a preflight request (`OPTIONS` with `Access-Control-Request-Method`), or nil when it is not one.
    func preflight(_ request: HTTPRequest, allowed: [HTTPMethod]) -> HTTPResponse? {
        guard request.headers["access-control-request-method"] != nil else {
            var headers = HTTPHeaders()
            if !allowed.isEmpty {
                headers.add(name: "Allow", value: (allowed + [.options]).map(\.rawValue).joined(separator: ", "))
                return HTTPResponse(status: .noContent, headers: headers, route: "OPTIONS")
            }
            return nil
        }
        var headers = HTTPHeaders()
        if let origin = request.headers["origin"], allows(origin), !allowed.isEmpty {
            headers.add(name: "Access-Control-Allow-Methods", value: (allowed + [.options]).map(\.rawValue).joined(separator: ", "))
            headers.add(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders)
            headers.add(name: "Access-Control-Max-Age", value: "600")
        }
        return HTTPResponse(status: .noContent, headers: headers, route: "OPTIONS preflight")
    }
}
