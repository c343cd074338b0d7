import Ink
import JSONKit
import OCR

/// Decodes the ink part of a request body, shared by `POST /v1/recognize` and sticker creation:
/// `{"strokes": [...], "lang"?, "hints"?: {"charset"?, "words"?}, "quality"?}`.
struct InkRequest {
    static let members: Set<String> = ["strokes", "lang", "hints", "quality"]
    static let maxHintWords = 1_000
    static let maxHintWordLength = 64

    /// Validates everything before any work: 413 when the ink is over a count limit, 422 for invalid values.
    /// - Parameter extraHints: members of `hints` the caller reads itself (sticker posts: `gestures`).
    static func decode(_ ink: InkBody, decoder: InkDecoder, defaultLanguage: String, extraHints: Set<String> = [],
                       collector: inout FieldCollector) throws(InkDecodingError) -> RecognitionRequest? {
        let root = JSONPointer.root
        let body = ink.object
        var strokes: [Stroke] = []
        if let read = ink.strokes {
            strokes = read  // InkML, already read and checked against the same limits
        } else if let value = body["strokes"] {
            do {
                strokes = try decoder.decode(value, at: root.appending("strokes"))
            } catch where error.kind == .tooLarge {
                throw error
            } catch {
                collector.record(error.violations)
            }
        } else {
            collector.record(FieldViolation(pointer: root.appending("strokes"), detail: "missing required member"))
        }
        let language = (collector.collect { () throws(FieldViolation) in try body.optional("lang", as: String.self, at: root) } ?? nil) ?? defaultLanguage
        var charset: CharacterHint?
        var words: [String] = []
        if let hints = body["hints"], !hints.isNull {
            let pointer = root.appending("hints")
            if let object = collector.collect({ () throws(FieldViolation) in try hints.decode(as: JSONObject.self, at: pointer) }) {
                collector.record(object.unknownMemberViolations(allowed: extraHints.union(["charset", "words"]), at: pointer))
                if let name = collector.collect({ () throws(FieldViolation) in try object.optional("charset", as: String.self, at: pointer) }) ?? nil {
                    if let hint = CharacterHint(rawValue: name) {
                        charset = hint
                    } else {
                        collector.record(FieldViolation(pointer: pointer.appending("charset"),
                                                        detail: "unknown charset '\(name)'; expected one of \(CharacterHint.allCases.map(\.rawValue).joined(separator: ", "))"))
                    }
                }
                if let list = object["words"], !list.isNull {
                    words = decodeWords(list, at: pointer.appending("words"), collector: &collector)
                }
            }
        }
        var quality = RecognitionRequest.Quality.auto
        if let name = collector.collect({ () throws(FieldViolation) in try body.optional("quality", as: String.self, at: root) }) ?? nil {
            if let q = RecognitionRequest.Quality(rawValue: name) {
                quality = q
            } else {
                collector.record(FieldViolation(pointer: root.appending("quality"), detail: "expected fast, auto or best"))
            }
        }
        guard collector.isEmpty else { return nil }
        return RecognitionRequest(strokes: strokes, language: language, charset: charset, words: words, quality: quality)
    }

    private static func decodeWords(_ value: JSONValue, at pointer: JSONPointer, collector: inout FieldCollector) -> [String] {
        guard let array = value.arrayValue else {
            collector.record(FieldViolation(pointer: pointer, detail: "expected an array of strings"))
            return []
        }
        if array.count > maxHintWords {
            collector.record(FieldViolation(pointer: pointer, detail: "at most \(maxHintWords) words"))
            return []
        }
        var words: [String] = []
        for (index, element) in array.enumerated() {
            guard let word = element.stringValue, !word.isEmpty, word.count <= maxHintWordLength else {
                collector.record(FieldViolation(pointer: pointer.appending(index), detail: "expected a non-empty string of at most \(maxHintWordLength) characters"))
                continue
            }
            words.append(word)
        }
        return words
    }
}
