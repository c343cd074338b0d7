import HTTPServer

extension APIError {
    /// The `application/problem+json` response (RFC 9457) for this error.
    func response(instance: String? = nil) -> HTTPResponse {
        var body = "{\"type\":"
        ProblemResponse.appendJSONString(type, to: &body)
        body += ",\"title\":"
        ProblemResponse.appendJSONString(status.reason, to: &body)
        body += ",\"status\":\(status.code),\"detail\":"
        ProblemResponse.appendJSONString(detail, to: &body)
        if let instance {
            body += ",\"instance\":"
            ProblemResponse.appendJSONString(instance, to: &body)
        }
        if !violations.isEmpty {
            body += ",\"errors\":["
            for (i, violation) in violations.enumerated() {
                if i > 0 { body += "," }
                body += "{\"pointer\":"
                ProblemResponse.appendJSONString(violation.pointer, to: &body)
                body += ",\"detail\":"
                ProblemResponse.appendJSONString(violation.detail, to: &body)
                body += "}"
            }
            body += "]"
        }
        body += "}"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        for (name, value) in self.headers { headers.add(name: name, value: value) }
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }
}
