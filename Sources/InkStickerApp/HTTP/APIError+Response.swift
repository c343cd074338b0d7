import HTTPServer
import JSONKit

extension APIError {
    /// The `application/problem+json` response (RFC 9457) for this error.
    func response(instance: String? = nil) -> HTTPResponse {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)),
            ("title", .string(status.reason)),
            ("status", .number(Double(status.code))),
            ("detail", .string(detail)),
        ]
        if let instance { members.append(("instance", .string(instance))) }
        if !violations.isEmpty {
            members.append(("errors", .array(violations.map {
                .object([("pointer", .string($0.pointer)), ("detail", .string($0.detail))])
            })))
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        for (name, value) in self.headers { headers.add(name: name, value: value) }
        return HTTPResponse(status: status, headers: headers, body: JSONWriter.write(.object(members)))
    }
}
