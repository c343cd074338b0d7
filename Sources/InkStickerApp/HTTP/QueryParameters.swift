import HTTPServer

/// Decoded query parameters with typed accessors; a bad value is a 400 that names the parameter.
struct QueryParameters: Sendable {
    private(set) var values: [String: String] = [:]

    /// No parameters.
    init() {}

    init(_ query: Substring?) throws(APIError) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try RequestPath.percentDecode(parts[0], what: "query", plusIsSpace: true)
            let value = parts.count > 1 ? try RequestPath.percentDecode(parts[1], what: "query", plusIsSpace: true) : ""
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    func int(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError(.badRequest, "query parameter '\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound)",
                           violations: [.init(pointer: "/query/\(name)", detail: "expected an integer in \(range.lowerBound)...\(range.upperBound)")])
        }
        return value
    }

    /// `1`, `true` or a bare `name` is true; `0` or `false` is false; anything else is a 400.
    func flag(_ name: String) throws(APIError) -> Bool {
        guard let text = values[name] else { return false }
        switch text {
        case "1", "true", "": return true
        case "0", "false": return false
        default:
            throw APIError(.badRequest, "query parameter '\(name)' must be 1, true, 0 or false",
                           violations: [.init(pointer: "/query/\(name)", detail: "expected 1, true, 0 or false")])
        }
    }
}
