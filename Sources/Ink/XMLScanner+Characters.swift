import JSONKit

extension XMLScanner {
    /// Checks the whole document once, before tokenizing: well-formed UTF-8 and only XML
    /// characters (XML 1.0 §2.2: no C0 controls but tab, LF and CR; no U+FFFE or U+FFFF).
    /// Everything later can then treat bytes ≥ 0x80 as parts of valid characters.
    func checkCharacters() throws(InkMLError) {
        if document.starts(with: [0xFE, 0xFF]) || document.starts(with: [0xFF, 0xFE]) {
            throw error(.malformed, "UTF-16 documents are not accepted; send the document as UTF-8", at: 0)
        }
        let count = document.count
        var offset = 0
        while offset < count {
            let byte = document[offset]
            if byte >= 0x20, byte < 0x80 {
                offset += 1
                continue
            }
            if byte < 0x20 {
                guard byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                    throw error(.malformed, "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) is not allowed in XML",
                                at: offset)
                }
                offset += 1
                continue
            }
            guard let length = UTF8Validation.sequenceLength(document, at: offset) else {
                throw error(.malformed, "invalid UTF-8", at: offset)
            }
            if length == 3, byte == 0xEF, document[offset + 1] == 0xBF, document[offset + 2] >= 0xBE {
                throw error(.malformed, "U+FFFE and U+FFFF are not allowed in XML", at: offset)
            }
            offset += length
        }
    }

    // MARK: References

    /// The reference starting with `&` at `start`: `&lt;` `&gt;` `&amp;` `&apos;` `&quot;`,
    /// `&#…;` or `&#x…;` naming an XML character. Any other entity is undeclared, since no DTD
    /// is ever read, and is refused.
    func reference(at start: Int) throws(InkMLError) -> (scalar: Unicode.Scalar, end: Int) {
        var offset = start + 1
        if byte(at: offset) == UInt8(ascii: "#") {
            offset += 1
            let hex = byte(at: offset) == UInt8(ascii: "x")
            if hex { offset += 1 }
            var value: UInt32 = 0
            var digits = 0
            while offset < document.count {
                let byte = document[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: digit = 99
                }
                guard digit < 99 else { break }
                // Saturate above the Unicode range; the check below refuses it.
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                digits += 1
                offset += 1
            }
            guard digits > 0, byte(at: offset) == UInt8(ascii: ";") else {
                throw error(.malformed, "malformed character reference; expected '&#' digits ';' or '&#x' hex digits ';'", at: start)
            }
            let allowed = value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
            guard allowed, let scalar = Unicode.Scalar(value) else {
                throw error(.malformed, "the character reference names a character XML does not allow", at: start)
            }
            return (scalar, offset + 1)
        }
        let nameStart = offset
        while offset < document.count, offset - nameStart <= 32 {
            let byte = document[offset]
            guard byte != UInt8(ascii: ";"), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"), !isWhitespace(byte) else { break }
            offset += 1
        }
        guard byte(at: offset) == UInt8(ascii: ";"), offset > nameStart else {
            throw error(.malformed, "'&' must start a reference such as '&amp;' or '&#38;'; write '&amp;' for a literal '&'", at: start)
        }
        let name = document[nameStart..<offset]
        let scalar: Unicode.Scalar
        if name.elementsEqual("lt".utf8) {
            scalar = "<"
        } else if name.elementsEqual("gt".utf8) {
            scalar = ">"
        } else if name.elementsEqual("amp".utf8) {
            scalar = "&"
        } else if name.elementsEqual("apos".utf8) {
            scalar = "'"
        } else if name.elementsEqual("quot".utf8) {
            scalar = "\""
        } else {
            throw error(.malformed, "undeclared entity '&\(String(decoding: name, as: UTF8.self));': only &lt; &gt; &amp; &apos; &quot; "
                        + "and character references are allowed, entity declarations are refused", at: start)
        }
        return (scalar, offset + 1)
    }

    /// Appends the text of `range` to `output`, references replaced. In an attribute value,
    /// literal tab, CR and LF become spaces (XML 1.0 §3.3.3); a CRLF pair becomes one.
    func decode(_ range: Range<Int>, hasReferences: Bool, into output: inout [UInt8],
                attributeValue: Bool = false) throws(InkMLError) {
        guard hasReferences || attributeValue else {
            output.append(contentsOf: document[range])
            return
        }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let current = document[offset]
            if current == UInt8(ascii: "&") {
                let (scalar, end) = try reference(at: offset)
                UTF8.encode(scalar) { output.append($0) }
                offset = end
                continue
            }
            if attributeValue, isWhitespace(current) {
                if current == 0x0D, offset + 1 < range.upperBound, document[offset + 1] == 0x0A { offset += 1 }
                output.append(0x20)
            } else {
                output.append(current)
            }
            offset += 1
        }
    }
}
