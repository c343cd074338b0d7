import JSONKit

/// Unsigned numbers in InkML trace data (InkML §3.2.1), sign and prefix already consumed:
///
///     number  ::= decimal | double | hex
///     decimal ::= digit+ ("." digit*)? | "." digit+
///     double  ::= decimal ("e" | "E") ("+" | "-")? digit+
///     hex     ::= "#" hexdigit+
///
/// Decimals go through JSONKit's `DecimalDigits`, the JSON reader's own digit scanner and rounding.
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

        var digits = DecimalDigits()
        var position = digits.scanInteger(text, from: start)
        var found = position > start
        if position < count, text[position] == UInt8(ascii: ".") {
            let fractionEnd = digits.scanFraction(text, from: position + 1)
            // "5." is a decimal; a lone "." is not a number at all.
            if found || fractionEnd > position + 1 {
                found = true
                position = fractionEnd
            }
        }
        guard found else { return .none }

        if position < count, text[position] | 0x20 == UInt8(ascii: "e") {
            var cursor = position + 1
            var negative = false
            if cursor < count, text[cursor] == UInt8(ascii: "+") || text[cursor] == UInt8(ascii: "-") {
                negative = text[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            // An "e" without exponent digits is not part of the number.
            if cursor < count, text[cursor] &- UInt8(ascii: "0") < 10 {
                position = digits.scanExponent(text, from: cursor, negative: negative)
            }
        }
        guard position - start <= maxLength else { return .tooLong }

        let token = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[start..<position])
        let value = digits.value(negative: false, token: token)
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
