import HTTPServer

/// Where a route's handler runs.
enum Execution: Sendable {
    /// On the event-loop thread: only for handlers that neither block nor compute much.
    case inline(@Sendable (RequestContext) throws -> HTTPResponse)
    /// On the blocking work pool (SQLite reads and writes).
    case blocking(@Sendable (RequestContext) throws -> HTTPResponse)
    /// The first handler on the event-loop thread (an answer from memory, or nil), else the second on the blocking pool.
    case inlineElseBlocking(@Sendable (RequestContext) -> HTTPResponse?, @Sendable (RequestContext) throws -> HTTPResponse)
    /// Starts work elsewhere (e.g. OCR) and answers through the responder when it is done.
    case deferred(@Sendable (RequestContext, Responder) throws -> Void)
}

/// A class, so that handing a route along the request path (its match, the resolution, the
/// handler call) costs one reference count, not one per field.
final class Route: Sendable {
    let method: HTTPMethod
    let pattern: PathPattern
    let execution: Execution
    /// Largest body this route accepts; checked before the body is read.
    let bodyLimit: Int?
    /// "GET /v1/boards/{boardId}": what logs and metrics name the route by (made once, not per request).
    let name: String

    init(method: HTTPMethod, pattern: PathPattern, execution: Execution, bodyLimit: Int?) {
        self.method = method
        self.pattern = pattern
        self.execution = execution
        self.bodyLimit = bodyLimit
        name = "\(method.rawValue) \(pattern.description)"
    }
}

/// Collects routes; `freeze()` turns it into the immutable router the server uses.
struct RouterBuilder {
    private(set) var routes: [Route] = []
    /// The body limit of routes that name none, and of requests that match no route.
    let defaultBodyLimit: Int?

    init(defaultBodyLimit: Int? = nil) {
        self.defaultBodyLimit = defaultBodyLimit
    }

    mutating func add(_ method: HTTPMethod, _ template: String, bodyLimit: Int? = nil, _ execution: Execution) {
        routes.append(Route(method: method, pattern: PathPattern(template), execution: execution,
                            bodyLimit: bodyLimit ?? defaultBodyLimit))
    }

    func freeze() -> Router { Router(routes: routes, defaultBodyLimit: defaultBodyLimit) }
}

/// An immutable table of routes.
struct Router: Sendable {
    enum Match {
        case found(Route, [String: String])
        /// The path exists but not for this method (405 with `Allow`).
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    let routes: [Route]
    /// The body limit of requests that match no route (their bodies are never read by a handler).
    let defaultBodyLimit: Int?

    /// Finds the route; `HEAD` is served by the `GET` route (RFC 9110 §9.3.2).
    func match(method: HTTPMethod, segments: [Substring]) -> Match {
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == method || (method == .head && route.method == .get) {
                return .found(route, parameters)
            }
            allowed.append(route.method)
            if route.method == .get { allowed.append(.head) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// The route a head reaches, worked out once per request when its head arrives: its body
    /// limit refuses oversized bodies unread, and the handler runs it without matching again.
    /// A class: it travels as the head's admission context (an existential), where a struct this
    /// size would be copied into a box of its own for every request.
    final class Resolution: Sendable {
        let segments: Result<[Substring], APIError>
        let match: Match?
        /// Largest body accepted: the matched route's limit, else the router's default.
        let bodyLimit: Int?

        init(segments: Result<[Substring], APIError>, match: Match?, bodyLimit: Int?) {
            self.segments = segments
            self.match = match
            self.bodyLimit = bodyLimit
        }
    }

    func resolve(_ head: HTTPRequestHead) -> Resolution {
        let segments = Result { () throws(APIError) in try RequestPath.segments(head.path) }
        let matched = (try? segments.get()).map { match(method: head.method, segments: $0) }
        var bodyLimit = defaultBodyLimit
        if case .found(let route, _)? = matched { bodyLimit = route.bodyLimit }
        return Resolution(segments: segments, match: matched, bodyLimit: bodyLimit)
    }
}
