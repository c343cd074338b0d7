import HTTPServer
import Store

/// How caches may keep each kind of response, in one place (RFC 9111). A route that says
/// otherwise (an asset, board creation with its token) keeps its own `Cache-Control`.
///
/// - Board resources (`/v1/boards/...`: a board, its stickers, listings, ink, SVG, PNG):
///   `private, no-cache`: a shared cache must not keep them, a browser may keep them but must
///   revalidate, so nothing is reused heuristically.
/// - Health, readiness and metrics, answers to other POSTs (recognition) and errors: `no-store`.
/// - Everything else (languages, the API description, page assets): `no-cache`.
///
/// Every successful GET that may be kept (not `no-store`) with a body and no ETag of its own gets
/// one from its content (SHA-256), and `If-None-Match` with it answers 304, so `no-cache` always
/// has a validator to revalidate.
enum CachePolicy {
    /// What a path names, as far as caching goes (from its segments as routing reads them).
    enum Resource {
        case board, operational, other

        init(segments: [Substring]?) {
            guard let segments else { self = .other; return }
            if segments.count > 2, segments[0] == "v1", segments[1] == "boards" {
                self = .board
            } else if segments.count == 1, ["healthz", "readyz", "metrics"].contains(segments[0]) {
                self = .operational
            } else {
                self = .other
            }
        }
    }

    static func apply(to response: inout HTTPResponse, method: HTTPMethod, resource: Resource, ifNoneMatch: String?) {
        if !response.headers.contains("Cache-Control") {
            response.headers.add(name: "Cache-Control", value: value(status: response.status.code, method: method, resource: resource))
        }
        guard method == .get || method == .head, response.status == .ok,
              response.headers["cache-control"] != "no-store", case .bytes(let body) = response.body else { return }
        // A response that may be kept gets a validator, so `no-cache` can revalidate it: the
        // route's own, or one hashed from the content.
        let tag: String
        if let own = response.headers["etag"] {
            tag = own
        } else {
            tag = EntityTag.ofContent(body)
            response.headers.add(name: "ETag", value: tag)
        }
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, tag) {
            var headers = HTTPHeaders()
            for name in ["ETag", "Cache-Control", "Vary", "Content-Location"] {
                for value in response.headers.values(name) { headers.add(name: name, value: value) }
            }
            let route = response.route
            response = HTTPResponse(status: .notModified, headers: headers)
            response.route = route
        }
    }

    static func value(status: Int, method: HTTPMethod, resource: Resource) -> String {
        if status >= 400 { return "no-store" }
        if resource == .board { return "private, no-cache" }
        if resource == .operational { return "no-store" }
        if method != .get && method != .head { return "no-store" }
        return "no-cache"
    }
}
