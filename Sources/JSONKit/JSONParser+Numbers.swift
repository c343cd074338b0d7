extension JSONParser {
    /// A number at `pos` (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    ///
    /// The digits go through `DecimalDigits`, which rounds correctly (`DecimalConversion`).
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = pos
        let zero = UInt8(ascii: "0")
        var negative = false
        if base[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }

        let text = UnsafeBufferPointer(start: base, count: count)
        var digits = DecimalDigits()
        if base[pos] == zero {
            pos += 1
            if pos < count, base[pos] &- zero < 10 { throw JSONParseError(.leadingZero, at: start) }
        } else {
            pos = digits.scanInteger(text, from: pos)
        }

        if pos < count, base[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }
            pos = digits.scanFraction(text, from: pos)
        }

        if pos < count, base[pos] | 0x20 == UInt8(ascii: "e") {
            pos += 1
            var exponentNegative = false
            if pos < count, base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-") {
                exponentNegative = base[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }
            pos = digits.scanExponent(text, from: pos, negative: exponentNegative)
        }

        guard pos - start <= limits.maxNumberLength else {
            throw JSONParseError(.numberTooLong(limit: limits.maxNumberLength), at: start)
        }

        let value = digits.value(negative: negative, token: UnsafeRawBufferPointer(start: base + start, count: pos - start))
        guard value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return value
    }

    /// The offending byte, or end of input, inside a number.
    private func numberError(at offset: Int) -> JSONParseError {
        JSONParseError(offset < count ? .invalidNumber : .unexpectedEndOfInput, at: offset)
    }
}
