import HTTPServer

/// The HTTP handler of the service: matches routes and runs each handler where it belongs.
final class Application: HTTPHandler {
    let router: Router
    let blocking: WorkPool
    let log: AppLog
    let cors: CORSPolicy

    init(router: Router, blocking: WorkPool, log: AppLog, cors: CORSPolicy) {
        self.router = router
        self.blocking = blocking
        self.log = log
        self.cors = cors
    }

    func admit(_ head: HTTPRequestHead) -> HTTPAdmission {
        let resolution = router.resolve(head)
        return HTTPAdmission(bodyLimit: resolution.bodyLimit, context: resolution)
    }

    func errorResponse(status: HTTPStatus, detail: String) -> HTTPResponse {
        var response = APIError(status, detail).response()
        CachePolicy.apply(to: &response, method: .get, resource: .other, ifNoneMatch: nil)
        return response
    }

    func handle(_ request: HTTPRequest, writer: HTTPResponseWriter) {
        let origin = request.headers["origin"]
        let cors = self.cors
        // Matched once, when the head arrived (`admit`); requests made in-process are matched here.
        let resolution = request.admission?.context as? Router.Resolution ?? router.resolve(request.head)
        // The cache policy goes by the path as routing reads it (empty segments dropped, `%xx`
        // decoded), so `//v1/boards/…` is a board resource as much as `/v1/boards/…`.
        let resource = CachePolicy.Resource(segments: try? resolution.segments.get())
        let method = request.method, ifNoneMatch = request.headers["if-none-match"]
        let send: @Sendable (HTTPResponse) -> Void = { response in
            var response = response
            CachePolicy.apply(to: &response, method: method, resource: resource, ifNoneMatch: ifNoneMatch)
            writer.send(origin.map { cors.decorate(response, origin: $0) } ?? response)
        }
        if method == .options, request.head.target == "*" {
            // `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7).
            var headers = HTTPHeaders()
            headers.add(name: "Allow", value: serverMethods.map(\.rawValue).joined(separator: ", "))
            send(HTTPResponse(status: .noContent, headers: headers, route: "OPTIONS *"))
            return
        }
        do throws(APIError) {
            let segments = try resolution.segments.get()
            if request.method == .options, let preflight = cors.preflight(request, allowed: allowedMethods(segments)) {
                send(preflight)
                return
            }
            switch resolution.match ?? router.match(method: request.method, segments: segments) {
            case .notFound:
                throw APIError(.notFound, "no resource at this path")
            case .methodNotAllowed(let allowed):
                let allow = allowed.map(\.rawValue).joined(separator: ", ")
                throw APIError(.methodNotAllowed, "method \(request.method) is not allowed here; allowed: \(allow)",
                               headers: [("Allow", allow)])
            case .found(let route, let parameters):
                let query: QueryParameters
                var queryError: APIError?
                do throws(APIError) {
                    query = try QueryParameters(request.query)
                } catch where parameters["boardId"] != nil {
                    (query, queryError) = (QueryParameters(), error)   // raised after the board's token is checked
                }
                run(route, context: RequestContext(request: request, parameters: parameters, query: query, route: route.name,
                                                   queryError: queryError), send: send)
            }
        } catch {
            send(error.response())
        }
    }

    /// Every method some resource of the server allows, in the router's order.
    private var serverMethods: [HTTPMethod] {
        var methods: [HTTPMethod] = []
        for method in router.routes.flatMap({ $0.method == .get ? [.get, .head] : [$0.method] }) + [.options]
        where !methods.contains(method) {
            methods.append(method)
        }
        return methods
    }

    private func allowedMethods(_ segments: [Substring]) -> [HTTPMethod] {
        router.routes.filter { $0.pattern.match(segments) != nil }.flatMap { $0.method == .get ? [.get, .head] : [$0.method] }
    }

    private func run(_ route: Route, context: RequestContext, send: @escaping @Sendable (HTTPResponse) -> Void) {
        switch route.execution {
        case .inline(let handler):
            // Cheap handlers answer on the event loop without any thread hop or extra allocation.
            send(Self.respond(route.name, context, log) { try handler(context) })
        case .blocking(let handler):
            runBlocking(route.name, context, handler, send: send)
        case .inlineElseBlocking(let fromMemory, let handler):
            if let response = fromMemory(context) {
                send(Self.respond(route.name, context, log) { response })
            } else {
                runBlocking(route.name, context, handler, send: send)
            }
        case .deferred(let handler):
            let name = route.name, log = self.log
            do {
                try handler(context, Responder(route: name, write: send))
            } catch {
                send(Self.respond(name, context, log) { throw error })
            }
        }
    }

    private func runBlocking(_ name: String, _ context: RequestContext, _ handler: @escaping @Sendable (RequestContext) throws -> HTTPResponse,
                             send: @escaping @Sendable (HTTPResponse) -> Void) {
        let log = self.log
        let accepted = blocking.submit { send(Self.respond(name, context, log) { try handler(context) }) }
        if !accepted {
            send(Self.respond(name, context, log) {
                throw APIError(.serviceUnavailable, "the server is busy; retry shortly", headers: [("Retry-After", "1")])
            })
        }
    }

    /// Runs a handler body and turns any error into its problem response; the route names the response.
    private static func respond(_ route: String, _ context: RequestContext, _ log: AppLog,
                                _ body: () throws -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try body()
        } catch {
            response = AppServices.errorResponse(error, route: route, requestID: context.request.requestID, log: log)
        }
        response.route = route
        return response
    }
}
