import Foundation
import HTTPServer
import JSONKit

/// Reading JSON request bodies and writing JSON responses.
enum JSONBody {
    /// The request body as a JSON object: 415 for another media type, 400 for malformed JSON,
    /// 422 when the document is not an object.
    static func object(_ context: RequestContext, allowEmpty: Bool = false) throws -> JSONObject {
        if allowEmpty && context.body.isEmpty { return JSONObject() }
        try requireJSONContentType(context)
        let value = try JSONReader.parse(context.body)
        guard case .object(let object) = value else {
            throw APIError.validation([.init(pointer: "", detail: "expected a JSON object, found \(value.kind)")])
        }
        return object
    }

    static func requireJSONContentType(_ context: RequestContext) throws(APIError) {
        let type = context.headers["content-type"].map(MediaType.essence) ?? ""
        guard type == "application/json" || type.hasSuffix("+json") else {
            throw APIError(.unsupportedMediaType, type.isEmpty ? "Content-Type application/json is required"
                           : "unsupported Content-Type '\(type)'; use application/json (or application/inkml+xml for ink)")
        }
    }

    /// A JSON response.
    static func response(_ status: HTTPStatus, _ value: JSONValue, headers extra: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in extra { headers.add(name: name, value: value) }
        return HTTPResponse(status: status, headers: headers, body: JSONWriter.write(value))
    }
}

/// Media type helpers (RFC 9110 §8.3.1).
enum MediaType {
    /// `type/subtype` lowercased, without parameters.
    static func essence(_ value: String) -> String {
        let main = value.split(separator: ";", maxSplits: 1).first ?? ""
        return main.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

extension APIError {
    /// 422 from decoding violations.
    init(_ violations: FieldViolations) {
        self = .validation(violations.violations.map { .init(pointer: $0.pointer.description, detail: $0.detail) })
    }

    init(_ violation: FieldViolation) {
        self = .validation([.init(pointer: violation.pointer.description, detail: violation.detail)])
    }
}
