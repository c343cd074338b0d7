import Foundation
import JSONKit

/// The `snapshot` column of `gesture_undos`: a sticker and its writings as JSON, every value as
/// it is stored (doubles written in their shortest form that reads back to the same value, ink
/// bytes in base64), so an undo puts back exactly what was there.
enum UndoSnapshot {
    static func encode(_ sticker: StickerRecord, _ inks: [InkRecord]) -> String {
        let s = sticker
        let object: JSONValue = .object([
            ("id", .string(s.id)), ("boardId", .string(s.boardId)), ("state", .string(s.state.rawValue)),
            ("text", .string(s.text)), ("recognizedText", .string(s.recognizedText)),
            ("confidence", .number(s.confidence)), ("candidates", .string(StickerRecord.encodeCandidates(s.candidates))),
            ("anchor", .numbers([s.anchor.x, s.anchor.y])), ("center", .numbers([s.center.x, s.center.y])),
            ("frame", .numbers([s.frame.x, s.frame.y, s.frame.width, s.frame.height])),
            ("fontFamily", .string(s.fontFamily)), ("fontSize", .number(s.fontSize)),
            ("strokeWidth", .number(s.style.strokeWidth)), ("strokeColor", .string(s.style.strokeColor)),
            ("fillColor", s.style.fillColor.map(JSONValue.string) ?? .null), ("kerning", .number(s.style.kerning)),
            ("lineHeight", .number(s.style.lineHeight)), ("alignment", .string(s.style.alignment.rawValue)),
            ("lineLimit", s.style.lineLimit.map { .number(Double($0)) } ?? .null),
            ("maxLength", s.maxLength.map { .number(Double($0)) } ?? .null),
            ("charset", s.charset.map(JSONValue.string) ?? .null),
            ("inkBounds", .numbers([s.inkBounds.x, s.inkBounds.y, s.inkBounds.width, s.inkBounds.height])),
            ("version", .number(Double(s.version))), ("createdAt", .number(Double(s.createdAt))),
            ("updatedAt", .number(Double(s.updatedAt))), ("committedAt", s.committedAt.map { .number(Double($0)) } ?? .null),
            ("seq", .number(Double(s.seq))),
            ("inks", .array(inks.map { ink in
                .object([("id", .string(ink.id)), ("seq", .number(Double(ink.seq))),
                         ("strokes", .string(Data(ink.strokes).base64EncodedString())),
                         ("createdAt", .number(Double(ink.createdAt)))])
            })),
        ])
        return JSONWriter().string(object)
    }

    static func decode(_ text: String) throws -> (StickerRecord, [InkRecord]) {
        let corrupt = StoreError.corruptValue(table: "gesture_undos", column: "snapshot", value: String(text.prefix(80)))
        guard let value = try? JSONReader.parse(Array(text.utf8)) else { throw corrupt }
        func string(_ key: String) throws -> String { guard let v = value[key]?.stringValue else { throw corrupt }; return v }
        func number(_ key: String) throws -> Double { guard let v = value[key]?.doubleValue else { throw corrupt }; return v }
        func integer(_ key: String) throws -> Int64 { Int64(try number(key)) }
        func optional(_ key: String) -> JSONValue? { value[key].flatMap { $0.isNull ? nil : $0 } }
        func numbers(_ key: String, _ count: Int) throws -> [Double] {
            guard let v = value[key]?.doubleArray, v.count == count else { throw corrupt }
            return v
        }
        guard let state = StickerRecord.State(rawValue: try string("state")),
              let alignment = StickerRecord.Alignment(rawValue: try string("alignment")) else { throw corrupt }
        let anchor = try numbers("anchor", 2), center = try numbers("center", 2)
        let frame = try numbers("frame", 4), ink = try numbers("inkBounds", 4)
        let sticker = StickerRecord(
            id: try string("id"), boardId: try string("boardId"), state: state, text: try string("text"),
            recognizedText: try string("recognizedText"), confidence: try number("confidence"),
            candidates: try StickerRecord.decodeCandidates(try string("candidates")),
            anchor: .init(x: anchor[0], y: anchor[1]), center: .init(x: center[0], y: center[1]),
            frame: .init(x: frame[0], y: frame[1], width: frame[2], height: frame[3]),
            fontFamily: try string("fontFamily"), fontSize: try number("fontSize"),
            style: .init(strokeWidth: try number("strokeWidth"), strokeColor: try string("strokeColor"),
                         fillColor: optional("fillColor")?.stringValue, kerning: try number("kerning"),
                         lineHeight: try number("lineHeight"), alignment: alignment,
                         lineLimit: optional("lineLimit")?.doubleValue.map { Int($0) }),
            maxLength: optional("maxLength")?.doubleValue.map { Int($0) }, charset: optional("charset")?.stringValue,
            inkBounds: .init(x: ink[0], y: ink[1], width: ink[2], height: ink[3]),
            version: try integer("version"), createdAt: try integer("createdAt"), updatedAt: try integer("updatedAt"),
            committedAt: optional("committedAt")?.doubleValue.map { Int64($0) }, seq: try integer("seq"))
        guard let inkValues = value["inks"]?.arrayValue else { throw corrupt }
        let inks = try inkValues.map { item -> InkRecord in
            guard let id = item["id"]?.stringValue, let seq = item["seq"]?.doubleValue,
                  let encoded = item["strokes"]?.stringValue, let strokes = Data(base64Encoded: encoded),
                  let createdAt = item["createdAt"]?.doubleValue else { throw corrupt }
            return InkRecord(id: id, stickerId: sticker.id, boardId: sticker.boardId, seq: Int64(seq),
                             strokes: Array(strokes), createdAt: Int64(createdAt))
        }
        return (sticker, inks)
    }
}
