extension JSONParser {
    /// A number at `pos` (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    ///
    /// Up to 19 significant digits are gathered into a `UInt64` with a decimal exponent. When the
    /// mantissa is at most 2^53 and the exponent within ±22, both operands are exact and IEEE
    /// multiplication/division rounds once, so the result is correctly rounded (Clinger 1990).
    /// Everything else goes to `strtod`, which is correctly rounded in glibc.
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = pos
        let zero = UInt8(ascii: "0")
        var negative = false
        if base[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }

        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var inexact = false   // a non-zero digit did not fit into the mantissa

        if base[pos] == zero {
            pos += 1
            if pos < count, base[pos] &- zero < 10 { throw JSONParseError(.leadingZero, at: start) }
        } else {
            while pos < count {
                let digit = base[pos] &- zero
                guard digit < 10 else { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                } else {
                    exponent += 1
                    if digit != 0 { inexact = true }
                }
                pos += 1
            }
        }

        if pos < count, base[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }
            while pos < count {
                let digit = base[pos] &- zero
                guard digit < 10 else { break }
                if significantDigits < 19 {
                    if mantissa != 0 || digit != 0 {
                        mantissa = mantissa &* 10 &+ UInt64(digit)
                        significantDigits += 1
                    }
                    exponent -= 1
                } else if digit != 0 {
                    inexact = true
                }
                pos += 1
            }
        }

        if pos < count, base[pos] | 0x20 == UInt8(ascii: "e") {
            pos += 1
            var exponentNegative = false
            if pos < count, base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-") {
                exponentNegative = base[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < count, base[pos] &- zero < 10 else { throw numberError(at: pos) }
            var written = 0
            while pos < count {
                let digit = base[pos] &- zero
                guard digit < 10 else { break }
                // Saturate: anything this large already over- or underflows; strtod decides.
                if written < 1_000_000 { written = written * 10 + Int(digit) }
                pos += 1
            }
            exponent += exponentNegative ? -written : written
        }

        guard pos - start <= limits.maxNumberLength else {
            throw JSONParseError(.numberTooLong(limit: limits.maxNumberLength), at: start)
        }

        let value = DecimalConversion.double(mantissa: mantissa, exponent: exponent, inexact: inexact, negative: negative,
                                             token: UnsafeRawBufferPointer(start: base + start, count: pos - start))
        guard value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return value
    }

    /// The offending byte, or end of input, inside a number.
    private func numberError(at offset: Int) -> JSONParseError {
        JSONParseError(offset < count ? .invalidNumber : .unexpectedEndOfInput, at: offset)
    }
}
