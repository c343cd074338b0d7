import HTTPServer
import Store

/// Operational endpoints: liveness, readiness, metrics and the API description.
enum SystemRoutes {
    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.get, "/healthz", .inline { _ in
            JSONResponse.raw(.ok, #"{"status":"ok"}"#)
        })
        router.add(.get, "/readyz", .blocking { _ in
            let checks = services.readiness()
            let ready = checks.allSatisfy { $0.ok }
            var body = "{\"status\":\"\(ready ? "ready" : "unavailable")\",\"checks\":{"
            body += checks.map { "\"\($0.name)\":\"\($0.ok ? "ok" : $0.detail)\"" }.joined(separator: ",")
            body += "}}"
            var response = JSONResponse.raw(ready ? .ok : .serviceUnavailable, body)
            if !ready { response.headers.add(name: "Retry-After", value: "1") }
            return response
        })
        router.add(.get, "/metrics", .inline { _ in
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
            return HTTPResponse(status: .ok, headers: headers, body: Array(services.prometheusText().utf8))
        })
        router.add(.get, "/openapi.yaml", .inline { _ in
            guard let spec = services.files.openAPI else { throw APIError.notFound("openapi.yaml") }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/yaml; charset=utf-8")
            headers.add(name: "Cache-Control", value: "no-cache")
            return HTTPResponse(status: .ok, headers: headers, body: spec)
        })
    }
}

/// Small helpers to build JSON responses.
enum JSONResponse {
    /// A response whose body is already JSON text.
    static func raw(_ status: HTTPStatus, _ json: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: headers, body: Array(json.utf8))
    }
}
