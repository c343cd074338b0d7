import Geometry
import HTTPServer
import Ink
import JSONKit
import Store
import TextLayout

/// Step 2b of a sticker post (`classify`), before any recognition: whether the ink is a pen
/// gesture over a sticker's text (scratch-out, strike-through) and, if so, the whole change it
/// makes, planned outside the write transaction like a writing's (`StickerPlan`).
///
/// - Only ink posted with gestures on (`hints.gestures`, default true) and a target other than
///   `new` is classified, and only against the text of stickers whose frames meet the ink (the
///   topmost first; the named one alone for a sticker target). Anything else is writing.
/// - Words a gesture deletes go from the field's text (each with one space next to it, and a
///   line left without words with its line break); the field keeps its centre and its frame is
///   fitted again. A gesture that leaves no text deletes
///   the sticker. A label's text is final: a gesture over all of it deletes the label, a gesture
///   over part of it is refused (409) and changes nothing.
/// - The gesture's ink is not stored. What it deleted is kept as an undo (`GestureUndo`).
struct GesturePlan: Sendable {
    enum Write: Sendable {
        /// Words deleted: the field at its next version, if it is still at `expectedVersion`.
        case update(StickerRecord, expectedVersion: Int64)
        /// The whole sticker deleted, if it is still at its version.
        case delete(StickerRecord)
    }

    let boardID: String
    let gesture: InkGesture
    let write: Write
    let undo: UndoRecord
    let response: HTTPResponse
    let event: EventRecord.Kind
    let eventPayload: String
    let idempotencyRecord: IdempotencyRecord?
    let now: Int64

    /// The plan for `request`'s ink if it is a gesture over a sticker's text, else nil (writing).
    static func make(_ request: CreateRequest, boardID: String, idempotency: Idempotency?,
                     _ services: AppServices) throws -> GesturePlan? {
        guard request.gestures, request.placement.target != .new else { return nil }
        let strokes = request.recognition.strokes
        guard strokes.count == 1, let bounds = strokes.bounds else { return nil }
        let candidates: [StickerRecord] = try services.database.read { tx in
            switch request.placement.target {
            case .new: return []
            case .sticker(let id): return try tx.sticker(id: id, boardId: boardID).map { [$0] } ?? []
            case .auto:
                let rect = StickerRecord.Rect(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)
                return try tx.topmostStickers(boardId: boardID, intersecting: rect, limit: maxStickersUnderInk)
            }
        }
        let classifier = GestureClassifier()
        for sticker in candidates where !sticker.text.isEmpty {
            let words = try services.layout.words(of: sticker)
            let glyphs = words.enumerated().flatMap { index, word in word.boxes.map { GestureGlyph(box: $0, word: index) } }
            let found = classifier.classify(strokes, over: glyphs)
            guard let gesture = found.gesture else { continue }
            return try plan(gesture, deleting: found.words.map { words[$0] }, of: sticker, boardID: boardID,
                            idempotency: idempotency, services)
        }
        return nil
    }

    /// The most stickers under one ink whose text is looked at (the topmost ones).
    static let maxStickersUnderInk = 20

    private static func plan(_ gesture: InkGesture, deleting words: [TextWord], of sticker: StickerRecord,
                             boardID: String, idempotency: Idempotency?, _ services: AppServices) throws -> GesturePlan {
        let now = Timestamp.now()
        let remaining = WordLayout.removing(words.map(\.range), from: sticker.text)
        let deletesSticker = remaining.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        if sticker.state == .label, !deletesSticker {
            throw APIError(.conflict, "the ink is a \(GestureJSON.name(gesture)) over part of a label, and a label's text is final: "
                           + "cross out all of it to delete it, or send the ink with hints.gestures false to write it")
        }
        let undoID = ResourceID.make(prefix: "u_")
        let write: Write
        let undo: UndoRecord
        let kept: StickerRecord?
        if deletesSticker {
            let inks = try services.database.read { tx in try tx.inks(stickerId: sticker.id) }
            write = .delete(sticker)
            undo = UndoRecord(id: undoID, boardId: boardID, stickerId: sticker.id, kind: .sticker, version: sticker.version,
                              sticker: sticker, inks: inks, createdAt: now, expiresAt: now + GestureUndo.lifetimeMs)
            kept = nil
        } else {
            var next = sticker
            next.text = remaining
            next.updatedAt = now
            next.version = sticker.version + 1
            try services.layout.fit(&next)
            write = .update(next, expectedVersion: sticker.version)
            undo = UndoRecord(id: undoID, boardId: boardID, stickerId: sticker.id, kind: .words, version: next.version,
                              sticker: sticker, inks: [], createdAt: now, expiresAt: now + GestureUndo.lifetimeMs)
            kept = next
        }
        let summary = GestureJSON.summary(gesture, words: words.map(\.text), sticker: sticker, deletesSticker: deletesSticker, undo: undo)
        var body: [(String, JSONValue)] = summary
        body.insert(("sticker", kept.map(StickerJSON.sticker) ?? .null), at: 1)
        let headers: [(String, String)] = kept.map { [("ETag", EntityTag.of($0))] } ?? []
        let response = JSONBody.response(.ok, .object(body), headers: headers)
        // The event carries the sticker as always, and what the gesture did, so other clients can offer the undo too.
        var payload = StickerJSON.sticker(kept ?? sticker)
        if case .object(var members) = payload {
            members["gesture"] = .object(summary)
            payload = .object(members)
        }
        return GesturePlan(boardID: boardID, gesture: gesture, write: write, undo: undo, response: response,
                           event: deletesSticker ? .deleted : .updated, eventPayload: JSONWriter().string(payload),
                           idempotencyRecord: idempotency?.record(boardId: boardID, response: response, now: now), now: now)
    }
}

/// The JSON of what a gesture did (documented in openapi.yaml as `GestureResult`).
enum GestureJSON {
    static func name(_ gesture: InkGesture) -> String {
        switch gesture {
        case .scratchOut: "scratch-out"
        case .strikeThrough: "strike-through"
        }
    }

    /// `gesture`, `deleted` and `undo` members.
    static func summary(_ gesture: InkGesture, words: [String], sticker: StickerRecord, deletesSticker: Bool,
                        undo: UndoRecord) -> [(String, JSONValue)] {
        [
            ("gesture", .string(gesture.rawValue)),
            ("deleted", .object([
                ("stickerId", .string(sticker.id)),
                ("sticker", .bool(deletesSticker)),
                ("words", .array(words.map(JSONValue.string))),
                ("textBefore", .string(sticker.text)),
            ])),
            ("undo", GestureUndo.link(undo)),
        ]
    }
}
