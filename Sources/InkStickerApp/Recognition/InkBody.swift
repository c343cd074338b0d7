import Ink
import JSONKit

/// The body of an ink post: a JSON object, or W3C InkML (`application/inkml+xml`) read straight
/// to strokes, with the other members taken from the query under their JSON names (`lang`,
/// `quality`, `target`, `hints.charset`, `hints.words` (comma-separated), and for stickers `hints.gestures`,
/// `charset`, `maxLength`, `font.family`, `font.size`), so both kinds go through the same
/// validation. A bad query value is a 400 that points at `/query/<name>`, and so is a name that is
/// none of these (a misspelt `maxlength` would otherwise leave the field without its limit).
struct InkBody {
    static let inkMLType = "application/inkml+xml"
    /// Query parameters that stand for body members of an InkML post.
    static let queryMembers: Set<String> = ["lang", "quality", "target", "hints.charset", "hints.words", "hints.gestures",
                                            "charset", "maxLength", "font.family", "font.size"]

    /// The members (for InkML: those given in the query).
    var object: JSONObject
    /// The strokes of an InkML body, already read; JSON strokes are decoded with the rest.
    var strokes: [Stroke]?
    /// The query names of an InkML post (none for JSON, whose query is not read for members).
    var queryNames: [String] = []

    static func read(_ context: RequestContext, limits: InkLimits) throws -> InkBody {
        let type = context.headers["content-type"].map(MediaType.essence) ?? ""
        guard type == inkMLType else { return InkBody(object: try JSONBody.object(context), strokes: nil) }
        let strokes = try InkMLReader(limits: limits).read(context.body)
        var object = JSONObject()
        for (name, value) in context.query.values.sorted(by: { $0.key < $1.key }) where queryMembers.contains(name) {
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let decoded: JSONValue
            switch name {
            case "hints.words": decoded = .array(value.split(separator: ",").map { .string(String($0)) })
            case "maxLength", "font.size": decoded = Double(value).map(JSONValue.number) ?? .string(value)
            case "hints.gestures": decoded = value == "true" ? .bool(true) : value == "false" ? .bool(false) : .string(value)
            default: decoded = .string(value)
            }
            object.set(path, decoded)
        }
        return InkBody(object: object, strokes: strokes, queryNames: context.query.values.keys.sorted())
    }

    /// The query names `/v1/recognize` takes with InkML: its members, and `debug`.
    static let recognizeQuery: Set<String> = ["lang", "quality", "hints.charset", "hints.words", "debug"]

    /// For an InkML post, 400 at `/query/<name>` for every query name the route does not take
    /// (`accepted`: its members' names and its own parameters); nil when there is none. A JSON
    /// post's query is not read for members.
    func unknownQueryError(accepted: Set<String>) -> APIError? {
        let unknown = queryNames.filter { !accepted.contains($0) }
        guard !unknown.isEmpty else { return nil }
        let names = accepted.sorted().joined(separator: ", ")
        let violations = unknown.map { APIError.Violation(pointer: "/query/" + $0, detail: "unknown query parameter; this InkML post takes \(names)") }
        return APIError(.badRequest, unknown.count == 1 ? "unknown query parameter '\(unknown[0])'" : "\(unknown.count) unknown query parameters",
                        violations: violations)
    }

    /// Violations of members that came from the query (an InkML post) are the query's fault:
    /// 400 with `/query/<name>` pointers, as for any other bad query parameter.
    func queryError(_ violations: [FieldViolation]) -> APIError {
        guard strokes != nil else { return APIError(FieldViolations(violations)) }
        let mapped = violations.map { violation -> APIError.Violation in
            let pointer = violation.pointer.description
            guard pointer != "/strokes", !pointer.hasPrefix("/strokes/") else { return .init(pointer: pointer, detail: violation.detail) }
            let name = pointer.split(separator: "/").prefix(2).joined(separator: ".")
            return .init(pointer: "/query/" + name, detail: violation.detail)
        }
        guard mapped.contains(where: { $0.pointer.hasPrefix("/query/") }) else { return APIError(FieldViolations(violations)) }
        return APIError(.badRequest, mapped.count == 1 ? mapped[0].detail : "\(mapped.count) query parameters are invalid",
                        violations: mapped)
    }
}

private extension JSONObject {
    /// Sets `value` at a member path, making the objects on the way.
    mutating func set(_ path: [String], _ value: JSONValue) {
        guard let first = path.first else { return }
        if path.count == 1 {
            self[first] = value
            return
        }
        var inner = self[first]?.objectValue ?? JSONObject()
        inner.set(Array(path.dropFirst()), value)
        self[first] = .object(inner)
    }
}
