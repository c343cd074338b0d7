extension XMLScanner {
    // MARK: Bytes

    /// The byte at `offset`, or 0 past the end (0 never occurs in a checked document).
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        offset < document.count ? document[offset] : 0
    }

    /// Whether `literal` occurs at `offset`.
    func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset >= 0, offset + length <= document.count else { return false }
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        for index in 0..<length where document[offset + index] != bytes[index] { return false }
        return true
    }

    /// The first offset at or after `start` where `literal` occurs.
    func find(_ literal: StaticString, from start: Int) -> Int? {
        let first = literal.utf8Start.pointee
        var offset = start
        while offset < document.count {
            if document[offset] == first, matches(literal, at: offset) { return offset }
            offset += 1
        }
        return nil
    }

    /// S ::= (#x20 | #x9 | #xD | #xA)+
    @inline(__always)
    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Skips whitespace; answers whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        while position < document.count, isWhitespace(document[position]) { position += 1 }
        return position > start
    }

    // MARK: Names

    /// NameStartChar: ASCII letters, `_`, `:` and any non-ASCII character. (XML 1.0 excludes a
    /// few non-ASCII ranges; accepting them is harmless here, names are only compared.)
    @inline(__always)
    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// NameChar: NameStartChar, digits, `-` and `.`.
    @inline(__always)
    private func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// A name at `position`; `expecting` completes "expected …" when there is none.
    mutating func scanName(expecting: String) throws(InkMLError) -> Range<Int> {
        let start = position
        guard position < document.count, isNameStart(document[position]) else {
            throw error(.malformed, "expected \(expecting), found \(describe(position))")
        }
        position += 1
        while position < document.count, isNameCharacter(document[position]) { position += 1 }
        guard position - start <= limits.maxNameLength else {
            throw error(.malformed, "a name longer than \(limits.maxNameLength) bytes", at: start)
        }
        return start..<position
    }

    /// Splits a name at its colon; at most one colon, not first or last (Namespaces §3).
    func qualifiedName(_ range: Range<Int>) throws(InkMLError) -> XMLName {
        let qualified = String(decoding: document[range], as: UTF8.self)
        guard let colon = document[range].firstIndex(of: UInt8(ascii: ":")) else {
            return XMLName(prefix: nil, local: qualified, qualified: qualified)
        }
        let local = (colon + 1)..<range.upperBound
        guard colon > range.lowerBound, !local.isEmpty, !document[local].contains(UInt8(ascii: ":")) else {
            throw error(.malformed, "'\(qualified)' is not a valid qualified name", at: range.lowerBound)
        }
        return XMLName(prefix: String(decoding: document[range.lowerBound..<colon], as: UTF8.self),
                       local: String(decoding: document[local], as: UTF8.self),
                       qualified: qualified)
    }

    // MARK: The XML declaration

    /// `<?xml version="1.x" encoding="…"? standalone="…"? ?>` at the very start, if present.
    /// Only UTF-8 (and its subset US-ASCII) is read; other encodings are refused by name.
    mutating func scanDeclaration() throws(InkMLError) {
        guard matches("<?xml", at: position), isWhitespace(byte(at: position + 5)) else { return }
        let start = position
        position += 5
        var seen: [String] = []
        while true {
            skipWhitespace()
            if matches("?>", at: position) {
                position += 2
                break
            }
            let nameRange = try scanName(expecting: "'version', 'encoding', 'standalone' or '?>' in the XML declaration")
            let name = String(decoding: document[nameRange], as: UTF8.self)
            skipWhitespace()
            guard byte(at: position) == UInt8(ascii: "=") else {
                throw error(.malformed, "expected '=' after '\(name)' in the XML declaration, found \(describe(position))")
            }
            position += 1
            skipWhitespace()
            let quote = byte(at: position)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error(.malformed, "expected a quoted value for '\(name)' in the XML declaration, found \(describe(position))")
            }
            let valueStart = position + 1
            guard let valueEnd = document[valueStart...].firstIndex(of: quote) else {
                throw error(.malformed, "the XML declaration is not closed", at: start)
            }
            let value = String(decoding: document[valueStart..<valueEnd], as: UTF8.self)
            position = valueEnd + 1
            let expected = ["version", "encoding", "standalone"]
            // version first, then encoding and standalone if present, in that order.
            guard let order = expected.firstIndex(of: name), seen.isEmpty == (order == 0),
                  seen.allSatisfy({ expected.firstIndex(of: $0) ?? 0 < order }) else {
                throw error(.malformed, "unexpected '\(name)' in the XML declaration", at: nameRange.lowerBound)
            }
            seen.append(name)
            switch name {
            case "version" where !(value.hasPrefix("1.") && value.count > 2 && value.utf8.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })):
                throw error(.malformed, "unsupported XML version '\(value)'", at: valueStart)
            case "encoding" where !["utf-8", "utf8", "us-ascii", "ascii"].contains(value.lowercased()):
                throw error(.malformed, "unsupported encoding '\(value)'; send the document as UTF-8", at: valueStart)
            case "standalone" where value != "yes" && value != "no":
                throw error(.malformed, "standalone must be 'yes' or 'no', found '\(value)'", at: valueStart)
            default:
                break
            }
        }
        guard !seen.isEmpty else {
            throw error(.malformed, "the XML declaration needs a version", at: start)
        }
    }

    // MARK: Errors

    /// An error at `offset` (default: the current position) with line and column filled in.
    func error(_ kind: InkMLError.Kind, _ detail: String, at offset: Int? = nil) -> InkMLError {
        InkMLError(kind, detail, at: offset ?? position, in: document)
    }

    /// The character at `offset` for a message: `'x'`, `a line break`, `the end of the document`.
    func describe(_ offset: Int) -> String {
        guard offset < document.count else { return "the end of the document" }
        let byte = document[offset]
        switch byte {
        case 0x0A, 0x0D: return "a line break"
        case 0x09: return "a tab"
        case 0x20: return "a space"
        case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0xC0...:
            // A checked document holds whole UTF-8 sequences; show the character.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(offset + length, document.count)
            return "'\(String(decoding: document[offset..<end], as: UTF8.self))'"
        default:
            let digits = Array("0123456789ABCDEF")
            return "byte 0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
        }
    }
}
