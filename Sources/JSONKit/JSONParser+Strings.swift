extension JSONParser {
    /// `"` at `pos`: returns the unescaped string, leaving `pos` after the closing quote.
    ///
    /// The fast path slices the input directly when the string has no escapes; UTF-8 is
    /// validated here byte by byte (RFC 3629 well-formedness, Unicode Table 3-7), so
    /// `String(decoding:)` never has to repair anything.
    mutating func parseString() throws(JSONParseError) -> String {
        pos += 1
        let start = pos
        while pos < count {
            let byte = base[pos]
            if byte == UInt8(ascii: "\"") {
                let length = pos - start
                guard length <= limits.maxStringLength else {
                    throw JSONParseError(.stringTooLong(limit: limits.maxStringLength), at: start - 1)
                }
                pos += 1
                return String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start)
            }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString(byte), at: pos) }
            if byte < 0x80 {
                pos += 1
            } else {
                try skipMultibyteScalar()
            }
        }
        throw JSONParseError(.unexpectedEndOfInput, at: pos)
    }

    /// Continues a string at its first backslash, copying into `scratch`.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: pos - start))
        while pos < count {
            let byte = base[pos]
            if byte == UInt8(ascii: "\"") {
                guard scratch.count <= limits.maxStringLength else {
                    throw JSONParseError(.stringTooLong(limit: limits.maxStringLength), at: start - 1)
                }
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try appendEscape()
            } else if byte < 0x20 {
                throw JSONParseError(.controlCharacterInString(byte), at: pos)
            } else if byte < 0x80 {
                scratch.append(byte)
                pos += 1
            } else {
                let scalarStart = pos
                try skipMultibyteScalar()
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + scalarStart, count: pos - scalarStart))
            }
        }
        throw JSONParseError(.unexpectedEndOfInput, at: pos)
    }

    /// `\` at `pos` (RFC 8259 §7): appends the escaped character's UTF-8 to `scratch`.
    private mutating func appendEscape() throws(JSONParseError) {
        let escapeStart = pos
        pos += 1
        let kind = try current()
        pos += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(kind)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if scalar >= 0xDC00, scalar <= 0xDFFF {
                throw JSONParseError(.loneSurrogate, at: escapeStart)
            }
            if scalar >= 0xD800, scalar <= 0xDBFF {
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard pos + 1 < count, base[pos] == UInt8(ascii: "\\"), base[pos + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(.loneSurrogate, at: escapeStart)
                }
                pos += 2
                let low = try readHex4()
                guard low >= 0xDC00, low <= 0xDFFF else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            throw JSONParseError(.invalidEscape, at: escapeStart)
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard pos + 4 <= count else { throw JSONParseError(.invalidUnicodeEscape, at: pos) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[pos + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidUnicodeEscape, at: pos + offset)
            }
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// A lead byte ≥ 0x80 at `pos`: checks one well-formed multi-byte scalar and steps over it.
    /// Rejects overlong forms, encoded surrogates (ED A0..BF) and anything above U+10FFFF.
    private mutating func skipMultibyteScalar() throws(JSONParseError) {
        guard let length = UTF8Validation.sequenceLength(UnsafeBufferPointer(start: base, count: count), at: pos) else {
            throw JSONParseError(.invalidUTF8, at: pos)
        }
        pos += length
    }
}
