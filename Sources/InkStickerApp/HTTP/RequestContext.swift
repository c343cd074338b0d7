import HTTPServer

/// What a route handler gets: the request, its decoded path and query parameters.
struct RequestContext: Sendable {
    let request: HTTPRequest
    let parameters: [String: String]
    let query: QueryParameters
    /// The route template that matched, for metrics and logs.
    let route: String
    /// A query that could not be decoded (`%zz`) on a board's route: raised by
    /// `BoardAccess.authorize` once the token is checked, so that without one every request is 401.
    var queryError: APIError?

    var headers: HTTPHeaders { request.headers }
    var body: [UInt8] { request.body }

    /// A path parameter that the route template guarantees.
    func parameter(_ name: String) throws(APIError) -> String {
        guard let value = parameters[name] else { throw APIError(.badRequest, "missing path parameter '\(name)'") }
        return value
    }
}

/// Delivers a handler's answer later, from any thread (used by routes that wait for OCR).
struct Responder: Sendable {
    let route: String
    let write: @Sendable (HTTPResponse) -> Void

    func send(_ response: HTTPResponse) {
        var response = response
        response.route = route
        write(response)
    }

    func fail(_ error: APIError) { send(error.response()) }
}
