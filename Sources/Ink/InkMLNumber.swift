#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `C` numeric locale for `strtod`, so that a process-wide `setlocale` with a comma decimal
/// separator cannot change how trace values read. Created once, never mutated or freed.
nonisolated(unsafe) private let cNumericLocale = newlocale(1 << LC_NUMERIC, "C", nil)

/// 10^0 … 10^22, each exactly representable as a `Double`.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Unsigned numbers in InkML trace data (InkML §3.2.1), sign and prefix already consumed:
///
///     number  ::= decimal | double | hex
///     decimal ::= digit+ ("." digit*)? | "." digit+
///     double  ::= decimal ("e" | "E") ("+" | "-")? digit+
///     hex     ::= "#" hexdigit+
///
/// Decimals are correctly rounded: Clinger's fast path when the digits fit 2^53 and the
/// exponent ±22 (one exact multiplication or division), `strtod` in the C locale otherwise.
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

        if !inexact {
            if exponent == 0 { return .value(Double(mantissa), end: position) }
            if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
                let value = Double(mantissa)
                return .value(exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent],
                              end: position)
            }
        }
        let value = slowParse(text, start..<position)
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

    /// `strtod` on a NUL-terminated copy of an already validated decimal token.
    private static func slowParse(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { buffer -> Double in
            guard let base = buffer.baseAddress, let source = text.baseAddress else { return .nan }
            UnsafeMutableRawPointer(base).copyMemory(from: source + range.lowerBound, byteCount: range.count)
            base[range.count] = 0
            let previous = uselocale(cNumericLocale)
            defer { uselocale(previous) }
            return strtod(base, nil)
        }
    }
}
