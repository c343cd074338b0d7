import Glibc
import JSONKit
import Store

/// The public JSON shape of stickers and boards (camelCase, documented in openapi.yaml).
enum StickerJSON {
    static func sticker(_ s: StickerRecord) -> JSONValue {
        .object([
            ("id", .string(s.id)),
            ("boardId", .string(s.boardId)),
            ("state", .string(s.state.rawValue)),
            ("text", .string(s.text)),
            ("recognizedText", .string(s.recognizedText)),
            ("confidence", .number(s.confidence)),
            ("candidates", candidates(s.candidates)),
            ("anchor", point(s.anchor)),
            ("center", point(s.center)),
            ("frame", rect(s.frame)),
            ("font", .object([("family", .string(s.fontFamily)), ("size", .number(s.fontSize))])),
            ("style", style(s.style)),
            ("maxLength", s.maxLength.map { .number(Double($0)) } ?? .null),
            ("charset", s.charset.map { .string($0) } ?? .null),
            ("inkBounds", rect(s.inkBounds)),
            ("version", .number(Double(s.version))),
            ("createdAt", .string(Timestamps.iso8601(s.createdAt))),
            ("updatedAt", .string(Timestamps.iso8601(s.updatedAt))),
            ("committedAt", s.committedAt.map { .string(Timestamps.iso8601($0)) } ?? .null),
        ])
    }

    static func point(_ p: StickerRecord.Point) -> JSONValue {
        .object([("x", .number(p.x)), ("y", .number(p.y))])
    }

    static func rect(_ r: StickerRecord.Rect) -> JSONValue {
        .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
    }

    static func style(_ s: StickerRecord.Style) -> JSONValue {
        .object([
            ("strokeWidth", .number(s.strokeWidth)),
            ("strokeColor", .string(s.strokeColor)),
            ("fillColor", .string(s.fillColor ?? StickerDefaults.fillColor)),
            ("kerning", .number(s.kerning)),
            ("lineHeight", .number(s.lineHeight)),
            ("alignment", .string(s.alignment.rawValue)),
            ("lineLimit", .number(Double(s.lineLimit ?? 0))),
        ])
    }

    static func candidates(_ candidates: [StickerRecord.Candidate]) -> JSONValue {
        .array(candidates.map { .object([("text", .string($0.text)), ("confidence", .number($0.confidence))]) })
    }

    static func board(_ b: BoardRecord, counts: StickerCounts? = nil, token: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(b.id)),
            ("title", .string(b.title)),
            ("createdAt", .string(Timestamps.iso8601(b.createdAt))),
        ]
        if let token { members.append(("token", .string(token))) }
        if let counts {
            members.append(("stickers", .object([("field", .number(Double(counts.fields))),
                                                  ("label", .number(Double(counts.labels))),
                                                  ("total", .number(Double(counts.total)))])))
        }
        return .object(members)
    }
}

/// Millisecond timestamps as RFC 3339 text.
enum Timestamps {
    static func iso8601(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let millis = Int32(milliseconds % 1000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }
}
