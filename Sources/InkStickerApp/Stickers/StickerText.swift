import JSONKit
import OCR
import Store

/// Rules for a sticker's text: the key-input rules from its `maxLength`/`charset`, and decoding of input ops.
enum StickerText {
    static let limits = TextInputLimits()

    static func rules(of sticker: StickerRecord) -> TextInputRules {
        TextInputRules(maxLength: sticker.maxLength,
                       charset: sticker.charset.flatMap(CharacterHint.init(rawValue:)) ?? .text)
    }

    /// Checks a whole replacement text (PATCH): it must fit `maxLength` and the charset, or it is refused
    /// (unlike typing, an explicit replacement is not silently truncated).
    static func validate(_ text: String, rules: TextInputRules, pointer: String) throws(APIError) {
        if text.count > StickerDefaults.maxTextCharacters {
            throw APIError.validation([.init(pointer: pointer, detail: "at most \(StickerDefaults.maxTextCharacters) characters")])
        }
        // The layout's limit, which a text of fewer characters can reach too (Hangul: 3 bytes each).
        if text.utf8.count > limits.maxTextUTF8Bytes {
            throw APIError.validation([.init(pointer: pointer, detail: "\(text.utf8.count) bytes of UTF-8; at most \(limits.maxTextUTF8Bytes) are allowed")])
        }
        if let maxLength = rules.maxLength, text.count > maxLength {
            throw APIError.validation([.init(pointer: pointer, detail: "longer than the sticker's maxLength of \(maxLength) characters")])
        }
        // The charset's typing rule decides `\n` too: text allows it, digits and number do not.
        if let bad = text.first(where: { !rules.charset.allowsTyping($0) }) {
            throw APIError.validation([.init(pointer: pointer, detail: "character '\(bad)' is not allowed by charset \(rules.charset.rawValue)")])
        }
    }

    /// Checks the text a sticker keeps against rules a request changes without sending a text:
    /// a violation points at the rule (`/maxLength`, `/charset`) and says to send a text that
    /// keeps it in the same request.
    static func validateKept(_ text: String, rules: TextInputRules) throws(APIError) {
        var violations: [APIError.Violation] = []
        if let maxLength = rules.maxLength, text.count > maxLength {
            violations.append(.init(pointer: "/maxLength", detail: "the sticker's text has \(text.count) characters, more than \(maxLength); send a shorter text with it"))
        }
        if let bad = text.first(where: { !rules.charset.allowsTyping($0) }) {
            violations.append(.init(pointer: "/charset", detail: "the sticker's text holds '\(bad)', which charset \(rules.charset.rawValue) does not allow; send a text it allows with it"))
        }
        if !violations.isEmpty { throw APIError.validation(violations) }
    }

    /// `{"ops": [{"insertText": "..."}, {"deleteBackward": 1}, ...]}`
    static func decodeOps(_ body: JSONObject) throws(APIError) -> [TextInputOp] {
        let root = JSONPointer.root
        var collector = FieldCollector()
        collector.record(body.unknownMemberViolations(allowed: ["ops"], at: root))
        guard let value = collector.collect({ () throws(FieldViolation) in try body.require("ops", as: JSONValue.self, at: root) }),
              let array = value.arrayValue else {
            if collector.isEmpty { collector.record(FieldViolation(pointer: root.appending("ops"), detail: "expected an array of ops")) }
            throw APIError(FieldViolations(collector.violations))
        }
        if array.count > limits.maxOps {
            throw APIError(.contentTooLarge, "at most \(limits.maxOps) ops per request")
        }
        var ops: [TextInputOp] = []
        for (index, element) in array.enumerated() {
            let pointer = root.appending("ops").appending(index)
            guard let object = collector.collect({ () throws(FieldViolation) in try element.decode(as: JSONObject.self, at: pointer) }) else { continue }
            if object.count != 1 {
                collector.record(FieldViolation(pointer: pointer, detail: "each op has exactly one of insertText or deleteBackward"))
                continue
            }
            if object["insertText"] != nil {
                if let text = collector.collect({ () throws(FieldViolation) in try object.require("insertText", as: String.self, at: pointer) }) {
                    ops.append(.insertText(text))
                }
            } else if object["deleteBackward"] != nil {
                if let count = collector.collect({ () throws(FieldViolation) in try object.require("deleteBackward", as: Int.self, at: pointer) }) {
                    ops.append(.deleteBackward(count: count))
                }
            } else {
                collector.record(FieldViolation(pointer: pointer.appending(object.keys[0]), detail: "unknown op; expected insertText or deleteBackward"))
            }
        }
        if !collector.isEmpty { throw APIError(FieldViolations(collector.violations)) }
        return ops
    }
}
