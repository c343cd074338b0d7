import JSONKit

/// Column order shared by every sticker SELECT and the row decoder below.
extension StickerRecord {
    static let columns = contentColumns + ", version, created_at, updated_at, committed_at, seq"

    /// Every column but those the store assigns (`version`, `seq`) and the times.
    static let contentColumns = """
        id, board_id, state, text, recognized_text, confidence, candidates, \
        anchor_x, anchor_y, center_x, center_y, frame_x, frame_y, frame_width, frame_height, \
        font_family, font_size, stroke_width, stroke_color, fill_color, kerning, line_height, \
        alignment, line_limit, max_length, charset, ink_x, ink_y, ink_width, ink_height
        """

    /// Decodes a row selected with `columns`.
    ///
    /// - Throws: `StoreError.corruptValue` for a state or alignment the schema's CHECKs should
    ///   have prevented, or candidates that are not the JSON array they are stored as (a
    ///   database edited by hand): a corrupt row fails loudly rather than reading as empty.
    init(row: any SQLRow) throws {
        let stateText = row.string(at: 2)
        guard let state = State(rawValue: stateText) else {
            throw StoreError.corruptValue(table: "stickers", column: "state", value: stateText)
        }
        let alignmentText = row.string(at: 22)
        guard let alignment = Alignment(rawValue: alignmentText) else {
            throw StoreError.corruptValue(table: "stickers", column: "alignment", value: alignmentText)
        }
        self.init(
            id: row.string(at: 0), boardId: row.string(at: 1), state: state, text: row.string(at: 3),
            recognizedText: row.string(at: 4), confidence: row.double(at: 5),
            candidates: try Self.decodeCandidates(row.string(at: 6)),
            anchor: Point(x: row.double(at: 7), y: row.double(at: 8)),
            center: Point(x: row.double(at: 9), y: row.double(at: 10)),
            frame: Rect(x: row.double(at: 11), y: row.double(at: 12),
                        width: row.double(at: 13), height: row.double(at: 14)),
            fontFamily: row.string(at: 15), fontSize: row.double(at: 16),
            style: Style(strokeWidth: row.double(at: 17), strokeColor: row.string(at: 18),
                         fillColor: row.optionalString(at: 19), kerning: row.double(at: 20),
                         lineHeight: row.double(at: 21), alignment: alignment,
                         lineLimit: row.optionalInt64(at: 23).map { Int(truncatingIfNeeded: $0) }),
            maxLength: row.optionalInt64(at: 24).map { Int(truncatingIfNeeded: $0) },
            charset: row.optionalString(at: 25),
            inkBounds: Rect(x: row.double(at: 26), y: row.double(at: 27),
                            width: row.double(at: 28), height: row.double(at: 29)),
            version: row.int64(at: 30), createdAt: row.int64(at: 31), updatedAt: row.int64(at: 32),
            committedAt: row.optionalInt64(at: 33), seq: row.int64(at: 34))
    }

    /// The 30 content columns (`contentColumns` order), for INSERT and UPDATE.
    var contentValues: [SQLValue] {
        let values: [any SQLValueConvertible] = [
            id, boardId, state.rawValue, text, recognizedText, confidence, Self.encodeCandidates(candidates),
            anchor.x, anchor.y, center.x, center.y, frame.x, frame.y, frame.width, frame.height,
            fontFamily, fontSize, style.strokeWidth, style.strokeColor, style.fillColor, style.kerning,
            style.lineHeight, style.alignment.rawValue, style.lineLimit, maxLength, charset,
            inkBounds.x, inkBounds.y, inkBounds.width, inkBounds.height,
        ]
        return values.map(\.sqlValue)
    }
}

extension StickerRecord {
    /// The candidates column: a JSON array of `{"text", "confidence"}` objects.
    static func encodeCandidates(_ candidates: [Candidate]) -> String {
        JSONWriter().string(.array(candidates.map { .object([("text", .string($0.text)), ("confidence", .number($0.confidence))]) }))
    }

    static func decodeCandidates(_ stored: String) throws -> [Candidate] {
        let corrupt = StoreError.corruptValue(table: "stickers", column: "candidates", value: String(stored.prefix(80)))
        guard let array = (try? JSONReader.parse(Array(stored.utf8)))?.arrayValue else { throw corrupt }
        return try array.map { item in
            guard let text = item["text"]?.stringValue, let confidence = item["confidence"]?.doubleValue else { throw corrupt }
            return Candidate(text: text, confidence: confidence)
        }
    }
}
