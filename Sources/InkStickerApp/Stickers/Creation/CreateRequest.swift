import Ink
import JSONKit
import OCR
import Store

/// Step 2 of creating a sticker from ink (`decode`): the whole request body, validated with every
/// violation and its JSON Pointer. It runs after the board's token is checked (step 1), so an
/// outsider learns nothing from validation and costs no decoding.
struct CreateRequest: Sendable {
    /// What to read, and how.
    var recognition: RecognitionRequest
    /// Where the ink goes: a new sticker or a field, and the new sticker's anchor and centre.
    var placement: StickerPlacement
    /// The look of a new sticker (defaults with the request's font, style and input rules).
    var look: StickerLook
    /// Whether ink over a sticker's text may be a gesture (`hints.gestures`, default true); false
    /// for ink that must be read as text.
    var gestures = true

    /// The centre of the ink's bounds: where `target: auto` looks for a field.
    var inkCenter: StickerRecord.Point {
        let bounds = StickerPlacement.bounds(recognition.strokes)
        return StickerRecord.Point(x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2)
    }

    static let members = InkRequest.members.union(StickerPlacement.members).union(["font", "style", "maxLength", "charset"])

    static func decode(_ context: RequestContext, _ services: AppServices) throws -> CreateRequest {
        let body = try InkBody.read(context, limits: services.inkDecoder.limits)
        if let unknown = body.unknownQueryError(accepted: InkBody.queryMembers) { throw unknown }
        var collector = FieldCollector()
        collector.record(body.object.unknownMemberViolations(allowed: members, at: .root))
        let recognition = try InkRequest.decode(body, decoder: services.inkDecoder,
                                                defaultLanguage: services.configuration.defaultLanguage,
                                                extraHints: ["gestures"], collector: &collector)
        var gestures = true
        if let hints = body.object["hints"]?.objectValue,
           let value = collector.collect({ () throws(FieldViolation) in
               try hints.optional("gestures", as: Bool.self, at: JSONPointer.root.appending("hints"))
           }) ?? nil {
            gestures = value
        }
        let placement = StickerPlacement.decode(body.object, collector: &collector, limit: services.inkDecoder.limits.maxCoordinateMagnitude)
        var look = StickerLook()
        StickerAppearance.apply(body.object, to: &look, collector: &collector)
        if let recognition, recognition.strokes.isEmpty {
            collector.record(FieldViolation(pointer: JSONPointer.root.appending("strokes"),
                                            detail: "at least one stroke is needed to create a sticker"))
        }
        guard collector.isEmpty, var recognition else { throw body.queryError(collector.violations) }
        if recognition.charset == nil, let charset = look.charset {
            // A digits-only sticker also reads the ink as digits.
            recognition.charset = CharacterHint(rawValue: charset)
        }
        return CreateRequest(recognition: recognition, placement: placement, look: look, gestures: gestures)
    }
}
