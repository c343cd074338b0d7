import Ink
import JSONKit

/// The body of an ink post as a JSON object: JSON as it is, or W3C InkML (`application/inkml+xml`)
/// with the other members taken from the query (`lang`, `charset`, `words`, `quality`, `target`),
/// so both kinds go through the same validation.
enum InkBody {
    static let inkMLType = "application/inkml+xml"

    static func object(_ context: RequestContext, limits: InkLimits) throws(APIError) -> JSONObject {
        let type = context.headers["content-type"].map(MediaType.essence) ?? ""
        guard type == inkMLType else { return try JSONBody.object(context) }
        let strokes: [Stroke]
        do {
            strokes = try InkMLReader(limits: limits).read(context.body)
        } catch {
            let detail = "InkML line \(error.line), column \(error.column): \(error.detail)"
            switch error.kind {
            case .malformed: throw APIError(.badRequest, detail)
            case .tooLarge: throw APIError(.contentTooLarge, detail)
            case .invalid: throw APIError.validation([.init(pointer: "/strokes", detail: detail)])
            }
        }
        var object = JSONObject()
        object["strokes"] = .array(strokes.map(InkJSON.stroke))
        let query = context.query
        if let lang = query["lang"] { object["lang"] = .string(lang) }
        if let quality = query["quality"] { object["quality"] = .string(quality) }
        if let target = query["target"] { object["target"] = .string(target) }
        var hints = JSONObject()
        if let charset = query["charset"] { hints["charset"] = .string(charset) }
        if let words = query["words"] {
            hints["words"] = .array(words.split(separator: ",").map { .string(String($0)) })
        }
        if !hints.isEmpty { object["hints"] = .object(hints) }
        return object
    }
}
