import Foundation
import HTTPServer
import Ink
import JSONKit
import OCR
import Store

/// Step 4 of creating a sticker (`lay out`): everything the write will store, computed outside
/// the write transaction: which field the ink goes into (read in a read transaction), the
/// sticker with its text fitted to the field's rules and its frame laid out around its centre,
/// the encoded ink, the response (the sticker's JSON, built once: it is also the event's
/// payload and the idempotency record's body).
struct StickerPlan: Sendable {
    enum Write: Sendable {
        /// A new field.
        case insert(StickerRecord)
        /// More writing in an existing field, if it is still at `expectedVersion`.
        case update(StickerRecord, expectedVersion: Int64)
    }

    let boardID: String
    let write: Write
    /// The encoded strokes of this writing.
    let ink: [UInt8]
    /// For `target: auto` with no field under the ink: the point a field must still not cover
    /// when the write happens (another writing may have made one there meanwhile).
    let emptyAt: StickerRecord.Point?
    let response: HTTPResponse
    let event: EventRecord.Kind
    let eventPayload: String
    let idempotencyRecord: IdempotencyRecord?
    let now: Int64

    var sticker: StickerRecord {
        switch write {
        case .insert(let sticker), .update(let sticker, _): sticker
        }
    }

    static func make(_ request: CreateRequest, _ read: Recognition, boardID: String, idempotency: Idempotency?,
                     _ services: AppServices) throws -> StickerPlan {
        let strokes = request.recognition.strokes
        let inkBounds = StickerPlacement.bounds(strokes)
        let inkCenter = request.inkCenter
        let candidates = read.candidates.map { StickerRecord.Candidate(text: $0.text, confidence: $0.confidence) }
        let target = try services.database.read { tx in try Self.target(of: request, boardID: boardID, tx) }
        let now = Timestamp.now()
        let write: Write
        if let field = target {
            var next = field
            next.text = field.text + CreationText.fitting(read.text, to: StickerText.rules(of: field), after: field.text)
            next.recognizedText = field.recognizedText.isEmpty ? read.text : field.recognizedText + " " + read.text
            next.confidence = read.confidence
            next.candidates = candidates
            next.inkBounds = StickerPlacement.union(field.inkBounds, inkBounds)
            next.updatedAt = now
            next.version = field.version + 1
            try services.layout.fit(&next)
            write = .update(next, expectedVersion: field.version)
        } else {
            let zero = StickerRecord.Rect(x: 0, y: 0, width: 0, height: 0)
            var sticker = StickerRecord(
                id: ResourceID.make(prefix: "s_"), boardId: boardID, state: .field, text: "", recognizedText: read.text,
                confidence: read.confidence, candidates: candidates,
                anchor: request.placement.anchor ?? firstPoint(strokes) ?? inkCenter,
                center: request.placement.center ?? inkCenter, frame: zero,
                fontFamily: request.look.fontFamily, fontSize: request.look.fontSize, style: request.look.style,
                maxLength: request.look.maxLength, charset: request.look.charset, inkBounds: inkBounds,
                createdAt: now, updatedAt: now, committedAt: nil)
            sticker.text = CreationText.fitting(read.text, to: StickerText.rules(of: sticker), after: "")
            try services.layout.fit(&sticker)
            write = .insert(sticker)
        }
        let sticker: StickerRecord
        let status: HTTPStatus
        switch write {
        case .insert(let s): (sticker, status) = (s, .created)
        case .update(let s, _): (sticker, status) = (s, .ok)
        }
        let response = EntityTag.response(status, sticker, extra: [("Location", location(sticker))])
        var payload = ""
        if case .bytes(let body) = response.body { payload = String(decoding: body, as: UTF8.self) }
        return StickerPlan(boardID: boardID, write: write, ink: InkCodec.encode(strokes),
                           emptyAt: target == nil && request.placement.target == .auto ? inkCenter : nil,
                           response: response, event: target == nil ? .created : .updated, eventPayload: payload,
                           idempotencyRecord: idempotency?.record(boardId: boardID, response: response, now: now), now: now)
    }

    /// The field the ink goes into (nil: a new field): the one named, or for `auto` the field
    /// under the ink's centre.
    static func target(of request: CreateRequest, boardID: String, _ tx: ReadTransaction) throws -> StickerRecord? {
        switch request.placement.target {
        case .new: return nil
        case .auto: return try tx.fields(boardId: boardID, containing: request.inkCenter).first
        case .sticker(let id):
            guard let sticker = try tx.sticker(id: id, boardId: boardID) else { throw APIError.notFound("target sticker") }
            guard sticker.state == .field else {
                throw APIError(.conflict, "the target sticker is a label; ink can only be written into fields")
            }
            return sticker
        }
    }

    static func location(_ sticker: StickerRecord) -> String { "/v1/boards/\(sticker.boardId)/stickers/\(sticker.id)" }

    private static func firstPoint(_ strokes: [Stroke]) -> StickerRecord.Point? {
        guard let stroke = strokes.first, stroke.pointCount > 0 else { return nil }
        return StickerRecord.Point(x: stroke.x[0], y: stroke.y[0])
    }
}

/// Recognised text made to fit a field's rules.
enum CreationText {
    /// Characters outside the field's charset are dropped and the text is cut at `maxLength`,
    /// like typing into it; a space separates it from existing text, only when some of it fits
    /// after the space (a field with room for one more character gets none: a space alone
    /// separates nothing).
    static func fitting(_ recognized: String, to rules: TextInputRules, after existing: String) -> String {
        var text = String(recognized.filter { rules.charset.allowsTyping($0) })
        let separated = !existing.isEmpty && rules.charset.allowsTyping(" ")
        if let maxLength = rules.maxLength {
            let room = max(0, maxLength - existing.count - (separated ? 1 : 0))
            text = String(text.prefix(room))
        }
        return separated && !text.isEmpty ? " " + text : text
    }
}
