import JSONKit

/// Unsigned numbers in InkML trace data (InkML §3.2.1), sign and prefix already consumed:
///
///     number  ::= decimal | double | hex
///     decimal ::= digit+ ("." digit*)? | "." digit+
///     double  ::= decimal ("e" | "E") ("+" | "-")? digit+
///     hex     ::= "#" hexdigit+
///
/// Decimals are correctly rounded by JSONKit's `DecimalConversion` (the JSON reader's own).
enum InkMLNumber {
    /// What a scan found.
    enum Scan {
        /// A finite value and the offset just past it.
        case value(Double, end: Int)
        /// No number starts at the offset.
        case none
        /// A token longer than the limit.
        case tooLong
        /// A token whose magnitude overflows a `Double` (or a hex value past 2^64).
        case outOfRange
    }

    /// Scans the number at `start` in `text`, greedily: `1.5.5` is `1.5` followed by `.5`, as
    /// the grammar reads it, and an `e` without exponent digits is not consumed.
    static func scan(_ text: UnsafeBufferPointer<UInt8>, at start: Int, maxLength: Int) -> Scan {
        let count = text.count
        guard start < count else { return .none }
        if text[start] == UInt8(ascii: "#") { return scanHex(text, at: start, maxLength: maxLength) }

        let zero = UInt8(ascii: "0")
        var position = start
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var inexact = false
        var digits = 0
        while position < count, text[position] &- zero < 10 {
            let digit = text[position] &- zero
            if significantDigits < 19 {
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                }
            } else {
                exponent += 1
                if digit != 0 { inexact = true }
            }
            digits += 1
            position += 1
        }
        if position < count, text[position] == UInt8(ascii: ".") {
            var fractionDigits = 0
            var cursor = position + 1
            while cursor < count, text[cursor] &- zero < 10 {
                let digit = text[cursor] &- zero
                if significantDigits < 19 {
                    if mantissa != 0 || digit != 0 {
                        mantissa = mantissa &* 10 &+ UInt64(digit)
                        significantDigits += 1
                    }
                    exponent -= 1
                } else if digit != 0 {
                    inexact = true
                }
                fractionDigits += 1
                cursor += 1
            }
            // "5." is a decimal; a lone "." is not a number at all.
            if digits > 0 || fractionDigits > 0 {
                digits += fractionDigits
                position = cursor
            }
        }
        guard digits > 0 else { return .none }

        if position < count, text[position] | 0x20 == UInt8(ascii: "e") {
            var cursor = position + 1
            var negative = false
            if cursor < count, text[cursor] == UInt8(ascii: "+") || text[cursor] == UInt8(ascii: "-") {
                negative = text[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            if cursor < count, text[cursor] &- zero < 10 {
                var written = 0
                while cursor < count, text[cursor] &- zero < 10 {
                    // Saturate: such exponents over- or underflow anyway; strtod decides.
                    if written < 1_000_000 { written = written * 10 + Int(text[cursor] &- zero) }
                    cursor += 1
                }
                exponent += negative ? -written : written
                position = cursor
            }
        }
        guard position - start <= maxLength else { return .tooLong }

        let token = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[start..<position])
        let value = DecimalConversion.double(mantissa: mantissa, exponent: exponent, inexact: inexact, negative: false,
                                             token: token)
        return value.isFinite ? .value(value, end: position) : .outOfRange
    }

    /// `#` and hexadecimal digits: an unsigned integer of at most 64 bits.
    private static func scanHex(_ text: UnsafeBufferPointer<UInt8>, at start: Int, maxLength: Int) -> Scan {
        var position = start + 1
        var value: UInt64 = 0
        var overflow = false
        while position < text.count {
            let byte = text[position]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: digit = 16
            }
            guard digit < 16 else { break }
            if value >> 60 != 0 { overflow = true }
            value = value &<< 4 | digit
            position += 1
        }
        guard position > start + 1 else { return .none }
        guard position - start <= maxLength else { return .tooLong }
        return overflow ? .outOfRange : .value(Double(value), end: position)
    }

}
