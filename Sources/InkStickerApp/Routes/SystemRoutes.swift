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
        router.add(.get, "/", .inline { context in try asset("index.html", context, services) })
        router.add(.get, "/assets/{name}", .inline { context in try asset(try context.parameter("name"), context, services) })
        router.add(.get, "/openapi.yaml", .inline { _ in
            guard let spec = services.files.openAPI else { throw APIError.notFound("openapi.yaml") }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/yaml; charset=utf-8")
            headers.add(name: "Cache-Control", value: "no-cache")
            // Its tag is computed once at start-up, not hashed again for every request (CachePolicy).
            headers.add(name: "ETag", value: services.files.openAPIETag)
            return HTTPResponse(status: .ok, headers: headers, body: spec)
        })
    }
}

extension SystemRoutes {
    /// A file of the web page, with a content hash as its ETag; no caching beyond revalidation.
    static func asset(_ name: String, _ context: RequestContext, _ services: AppServices) throws -> HTTPResponse {
        guard let asset = services.files.assets[name] else { throw APIError.notFound("file") }
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: asset.etag)
        headers.add(name: "Cache-Control", value: "no-cache")
        if context.headers["if-none-match"] == asset.etag {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: asset.contentType)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        if asset.contentType.hasPrefix("text/html") {
            // Everything the page needs comes from this server, and no other site may frame it:
            // a framed page could be clicked into clearing or ending the board kept in its browser.
            headers.add(name: "Content-Security-Policy",
                        value: "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
                            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
            headers.add(name: "X-Frame-Options", value: "DENY")
        }
        return HTTPResponse(status: .ok, headers: headers, body: asset.body)
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
