import JSONKit
import OCR
import Store
import TextLayout

/// Decodes the client-settable look of a sticker (`font`, `style`, `maxLength`, `charset`) onto a
/// `StickerLook`, collecting every violation with its JSON Pointer. Used by create (over the
/// defaults) and PATCH (over the stored sticker's look).
/// A member that is absent or `null` leaves the value as it is, except `maxLength` and `charset`,
/// where `null` removes the rule.
enum StickerAppearance {
    static let styleMembers: Set<String> = ["strokeWidth", "strokeColor", "fillColor", "kerning", "lineHeight", "alignment", "lineLimit"]

    static func apply(_ body: JSONObject, to record: inout StickerLook, collector: inout FieldCollector) {
        let root = JSONPointer.root
        if let font = body["font"], !font.isNull {
            applyFont(font, to: &record, at: root.appending("font"), collector: &collector)
        }
        if let style = body["style"], !style.isNull {
            applyStyle(style, to: &record.style, at: root.appending("style"), collector: &collector)
        }
        if let value = body["maxLength"] {
            if value.isNull {
                record.maxLength = nil
            } else if let n = collector.collect({ () throws(FieldViolation) in try integer(value, in: StickerDefaults.maxLengthRange, at: root.appending("maxLength")) }) {
                record.maxLength = n
            }
        }
        if let value = body["charset"] {
            if value.isNull {
                record.charset = nil
            } else if let charset = collector.collect({ () throws(FieldViolation) in try Self.charset(value, at: root.appending("charset")) }) {
                record.charset = charset == .text ? nil : charset.rawValue
            }
        }
    }

    static func charset(_ value: JSONValue, at pointer: JSONPointer) throws(FieldViolation) -> CharacterHint {
        let name: String = try value.decode(at: pointer)
        guard let charset = CharacterHint(rawValue: name) else {
            throw FieldViolation(pointer: pointer, detail: "unknown charset '\(name)'; expected one of text, digits, number")
        }
        return charset
    }

    private static func applyFont(_ value: JSONValue, to record: inout StickerLook, at pointer: JSONPointer,
                                  collector: inout FieldCollector) {
        guard let font = collector.collect({ () throws(FieldViolation) in try value.decode(as: JSONObject.self, at: pointer) }) else { return }
        collector.record(font.unknownMemberViolations(allowed: ["family", "size"], at: pointer))
        if let name = collector.collect({ () throws(FieldViolation) in try font.optional("family", as: String.self, at: pointer) }) ?? nil {
            do {
                record.fontFamily = try FontFamily(name: name).rawValue
            } catch {
                collector.record(FieldViolation(pointer: pointer.appending("family"), detail: error.description))
            }
        }
        if let size = collector.collect({ () throws(FieldViolation) in try number(font["size"], in: StickerDefaults.fontSizeRange, at: pointer.appending("size")) }) ?? nil {
            record.fontSize = size
        }
    }

    private static func applyStyle(_ value: JSONValue, to style: inout StickerRecord.Style, at pointer: JSONPointer,
                                   collector: inout FieldCollector) {
        guard let object = collector.collect({ () throws(FieldViolation) in try value.decode(as: JSONObject.self, at: pointer) }) else { return }
        collector.record(object.unknownMemberViolations(allowed: styleMembers, at: pointer))
        if let v = collector.collect({ () throws(FieldViolation) in try number(object["strokeWidth"], in: StickerDefaults.strokeWidthRange, at: pointer.appending("strokeWidth")) }) ?? nil {
            style.strokeWidth = v
        }
        if let v = collector.collect({ () throws(FieldViolation) in try color(object["strokeColor"], at: pointer.appending("strokeColor")) }) ?? nil {
            style.strokeColor = v
        }
        if let v = collector.collect({ () throws(FieldViolation) in try color(object["fillColor"], at: pointer.appending("fillColor")) }) ?? nil {
            style.fillColor = v
        }
        if let v = collector.collect({ () throws(FieldViolation) in try number(object["kerning"], in: StickerDefaults.kerningRange, at: pointer.appending("kerning")) }) ?? nil {
            style.kerning = v
        }
        if let v = collector.collect({ () throws(FieldViolation) in try number(object["lineHeight"], in: StickerDefaults.lineHeightRange, at: pointer.appending("lineHeight")) }) ?? nil {
            style.lineHeight = v
        }
        if let v = object["alignment"], !v.isNull {
            let p = pointer.appending("alignment")
            if let name = collector.collect({ () throws(FieldViolation) in try v.decode(as: String.self, at: p) }) {
                if let alignment = StickerRecord.Alignment(rawValue: name) {
                    style.alignment = alignment
                } else {
                    collector.record(FieldViolation(pointer: p, detail: "expected one of left, center, right"))
                }
            }
        }
        if let v = object["lineLimit"], !v.isNull, let n = collector.collect({ () throws(FieldViolation) in try integer(v, in: StickerDefaults.lineLimitRange, at: pointer.appending("lineLimit")) }) {
            style.lineLimit = n == 0 ? nil : n
        }
    }

    static func number(_ value: JSONValue?, in range: ClosedRange<Double>, at pointer: JSONPointer) throws(FieldViolation) -> Double? {
        guard let value, !value.isNull else { return nil }
        let number: Double = try value.decode(at: pointer)
        guard range.contains(number) else {
            throw FieldViolation(pointer: pointer, detail: "must be between \(range.lowerBound.clean) and \(range.upperBound.clean)")
        }
        return number
    }

    static func integer(_ value: JSONValue, in range: ClosedRange<Int>, at pointer: JSONPointer) throws(FieldViolation) -> Int {
        let number: Int = try value.decode(at: pointer)
        guard range.contains(number) else {
            throw FieldViolation(pointer: pointer, detail: "must be an integer between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`, normalised to upper case.
    static func color(_ value: JSONValue?, at pointer: JSONPointer) throws(FieldViolation) -> String? {
        guard let value, !value.isNull else { return nil }
        let text: String = try value.decode(at: pointer)
        let hex = text.utf8.dropFirst()
        guard text.hasPrefix("#"), [3, 6, 8].contains(hex.count),
              hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw FieldViolation(pointer: pointer, detail: "expected a colour as #RGB, #RRGGBB or #RRGGBBAA")
        }
        return text.uppercased()
    }
}

extension Double {
    /// Without a trailing ".0" for whole numbers, for messages.
    var clean: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
