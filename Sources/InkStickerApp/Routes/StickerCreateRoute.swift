import Foundation
import HTTPServer
import Ink
import JSONKit
import OCR
import Store
import TextLayout

/// `POST /v1/boards/{boardId}/stickers`: ink is recognised and becomes a field where it was written,
/// or is written into the field under it.
///
/// The request moves across three kinds of threads: validation and the idempotency check on the
/// blocking pool, recognition on an OCR worker, and the write back on the blocking pool.
enum StickerCreateRoute {
    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.post, "/v1/boards/{boardId}/stickers", bodyLimit: services.configuration.maxInkBodyBytes, .deferred { context, responder in
            try services.admitInk(context)
            services.onBlocking(responder, requestID: context.request.requestID) {
                try start(context, responder, services)
            }
        })
    }

    /// A validated creation request, waiting for its recognition.
    struct Pending: Sendable {
        let boardID: String
        let recognition: RecognitionRequest
        let placement: StickerPlacement
        let appearance: StickerRecord
        let idempotency: Idempotency?
        let decodeMs: Double
    }

    private static func start(_ context: RequestContext, _ responder: Responder, _ services: AppServices) throws -> HTTPResponse? {
        let started = DispatchTime.now()
        let idempotency = try Idempotency.of(context)
        let (board, stored) = try services.database.read { tx -> (BoardRecord, IdempotencyRecord?) in
            let board = try BoardAccess.authorize(context, in: tx)
            let stored = try idempotency.flatMap { try tx.idempotencyRecord(boardId: board.id, key: $0.key, now: Timestamp.now()) }
            return (board, stored)
        }
        if let idempotency, let replay = try idempotency.replay(stored) { return replay }
        let body = try InkBody.object(context, limits: services.inkDecoder.limits)
        var collector = FieldCollector()
        collector.record(body.unknownMemberViolations(allowed: InkRequest.members.union(StickerPlacement.members)
            .union(["font", "style", "maxLength", "charset"]), at: .root))
        let recognition = try InkRequest.decode(body, decoder: services.inkDecoder,
                                                defaultLanguage: services.configuration.defaultLanguage, collector: &collector)
        let placement = StickerPlacement.decode(body, collector: &collector, limit: services.inkDecoder.limits.maxCoordinateMagnitude)
        var appearance = Self.template(boardID: board.id)
        StickerAppearance.apply(body, to: &appearance, collector: &collector)
        if let recognition, recognition.strokes.isEmpty {
            collector.record(FieldViolation(pointer: JSONPointer.root.appending("strokes"), detail: "at least one stroke is needed to create a sticker"))
        }
        guard collector.isEmpty, var recognition else { throw APIError(FieldViolations(collector.violations)) }
        if recognition.charset == nil, let charset = appearance.charset {
            // A digits-only sticker also reads the ink as digits.
            recognition.charset = CharacterHint(rawValue: charset)
        }
        let pending = Pending(boardID: board.id, recognition: recognition, placement: placement, appearance: appearance,
                              idempotency: idempotency,
                              decodeMs: Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
        try services.recognizer.recognize(recognition, deadlineMilliseconds: services.configuration.ocrDeadlineMs) { result in
            services.onBlocking(responder, requestID: context.request.requestID) {
                switch result {
                case .failure(let error): throw ErrorMapping.ocrError(error)
                case .success(let read): return try finish(context, pending, read, services)
                }
            }
        }
        return nil
    }

    /// A new field's defaults before the request's font and style are applied.
    static func template(boardID: String) -> StickerRecord {
        let zero = StickerRecord.Point(x: 0, y: 0)
        return StickerRecord(id: "", boardId: boardID, state: .field, text: "", recognizedText: "", confidence: 0,
                             candidates: "[]", anchor: zero, center: zero,
                             frame: StickerRecord.Rect(x: 0, y: 0, width: 0, height: 0),
                             fontFamily: StickerDefaults.fontFamily.rawValue, fontSize: StickerDefaults.fontSize,
                             style: StickerDefaults.style, maxLength: nil, charset: nil,
                             inkBounds: StickerRecord.Rect(x: 0, y: 0, width: 0, height: 0),
                             createdAt: 0, updatedAt: 0, committedAt: nil)
    }

    private static func finish(_ context: RequestContext, _ pending: Pending, _ read: Recognition,
                               _ services: AppServices) throws -> HTTPResponse {
        let changes = StickerChanges(services: services)
        let strokes = pending.recognition.strokes
        let inkBounds = StickerPlacement.bounds(strokes)
        let inkCenter = StickerRecord.Point(x: inkBounds.x + inkBounds.width / 2, y: inkBounds.y + inkBounds.height / 2)
        let candidates = StickerJSON.encodeCandidates(read.candidates.map { ($0.text, $0.confidence) })
        let response: HTTPResponse = try services.database.write { tx in
            let now = Timestamp.now()
            if let idempotency = pending.idempotency,
               let replay = try idempotency.replay(try tx.idempotencyRecord(boardId: pending.boardID, key: idempotency.key, now: now)) {
                return replay  // a concurrent retry finished first
            }
            guard try tx.board(id: pending.boardID) != nil else { throw BoardAccess.denied }
            var target: StickerRecord?
            switch pending.placement.target {
            case .new: target = nil
            case .auto: target = try tx.fields(boardId: pending.boardID, containing: inkCenter).first
            case .sticker(let id):
                guard let sticker = try tx.sticker(id: id, boardId: pending.boardID) else { throw APIError.notFound("target sticker") }
                guard sticker.state == .field else {
                    throw APIError(.conflict, "the target sticker is a label; ink can only be written into fields")
                }
                target = sticker
            }
            let response: HTTPResponse
            if let field = target {
                var next = field
                let addition = fitting(read.text, to: StickerText.rules(of: field), after: field.text)
                next.text = field.text + addition
                next.recognizedText = field.recognizedText.isEmpty ? read.text : field.recognizedText + " " + read.text
                next.confidence = read.confidence
                next.candidates = candidates
                next.inkBounds = StickerPlacement.union(field.inkBounds, inkBounds)
                next.updatedAt = now
                try services.layout.fit(&next)
                let stored = try tx.updateSticker(next, expectedVersion: field.version)
                try tx.insertInk(InkRecord(id: ResourceID.make(prefix: "i_"), stickerId: stored.id, boardId: stored.boardId,
                                           seq: try tx.nextInkSeq(stickerId: stored.id), strokes: InkCodec.encode(strokes), createdAt: now))
                try changes.record(.updated, stored, tx)
                response = EntityTag.response(.ok, stored, extra: [("Location", location(stored))])
            } else {
                var sticker = pending.appearance
                sticker.id = ResourceID.make(prefix: "s_")
                sticker.text = fitting(read.text, to: StickerText.rules(of: sticker), after: "")
                sticker.recognizedText = read.text
                sticker.confidence = read.confidence
                sticker.candidates = candidates
                sticker.anchor = pending.placement.anchor ?? firstPoint(strokes) ?? inkCenter
                sticker.center = pending.placement.center ?? inkCenter
                sticker.inkBounds = inkBounds
                sticker.createdAt = now
                sticker.updatedAt = now
                try services.layout.fit(&sticker)
                let stored = try tx.insertSticker(sticker)
                try tx.insertInk(InkRecord(id: ResourceID.make(prefix: "i_"), stickerId: stored.id, boardId: stored.boardId,
                                           seq: 1, strokes: InkCodec.encode(strokes), createdAt: now))
                try changes.record(.created, stored, tx)
                response = EntityTag.response(.created, stored, extra: [("Location", location(stored))])
            }
            if let idempotency = pending.idempotency {
                try tx.putIdempotencyRecord(idempotency.record(boardId: pending.boardID, response: response, now: now))
            }
            return response
        }
        services.events.notify(boardId: pending.boardID)
        return response
    }

    static func location(_ sticker: StickerRecord) -> String { "/v1/boards/\(sticker.boardId)/stickers/\(sticker.id)" }

    private static func firstPoint(_ strokes: [Stroke]) -> StickerRecord.Point? {
        guard let stroke = strokes.first, stroke.pointCount > 0 else { return nil }
        return StickerRecord.Point(x: stroke.x[0], y: stroke.y[0])
    }

    /// Recognised text made to fit a field's rules: characters outside its charset are dropped and the
    /// text is cut at `maxLength`, like typing into it; a space separates it from existing text.
    static func fitting(_ recognized: String, to rules: TextInputRules, after existing: String) -> String {
        var text = String(recognized.filter { rules.charset.allows($0) || $0 == "\n" && rules.charset == .text })
        if !existing.isEmpty, !text.isEmpty, rules.charset.allows(" ") { text = " " + text }
        if let maxLength = rules.maxLength {
            let room = max(0, maxLength - existing.count)
            text = String(text.prefix(room))
        }
        return text
    }
}
