/// The digits of a decimal number as a scanner meets them, shared by every number grammar
/// (JSON, InkML): up to 19 significant digits in `mantissa` with a decimal `exponent`, and
/// whether a non-zero digit did not fit (`inexact`); `value` turns them into a correctly
/// rounded `Double` through `DecimalConversion`.
///
/// Each `scan…` method reads a run of ASCII digits from `position` and returns the offset just
/// past it (equal to `position` when no digit is there); what comes between the runs (sign,
/// `.`, `e`, prefixes) is the grammar's business.
public struct DecimalDigits {
    private var mantissa: UInt64 = 0
    private var exponent = 0
    private var inexact = false
    private var significantDigits = 0

    public init() {}

    /// Integer-part digits. Leading zeros are not significant.
    public mutating func scanInteger(_ text: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        scanSignificand(text, from: position, fraction: false)
    }

    /// Fraction digits, after the decimal point.
    public mutating func scanFraction(_ text: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        scanSignificand(text, from: position, fraction: true)
    }

    /// A fraction digit that fits scales the value down; an integer digit that does not fit
    /// scales it up.
    private mutating func scanSignificand(_ text: UnsafeBufferPointer<UInt8>, from position: Int, fraction: Bool) -> Int {
        var position = position
        while position < text.count {
            let digit = text[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significantDigits < 19 {
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                }
                if fraction { exponent -= 1 }
            } else {
                if !fraction { exponent += 1 }
                if digit != 0 { inexact = true }
            }
            position += 1
        }
        return position
    }

    /// Exponent digits, after `e` and its sign. The written exponent saturates at a million:
    /// such exponents over- or underflow anyway, and `strtod` decides.
    public mutating func scanExponent(_ text: UnsafeBufferPointer<UInt8>, from position: Int, negative: Bool) -> Int {
        var position = position
        var written = 0
        while position < text.count {
            let digit = text[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if written < 1_000_000 { written = written * 10 + Int(digit) }
            position += 1
        }
        exponent += negative ? -written : written
        return position
    }

    /// The correctly rounded value; `token` is the number as written, sign included when it has
    /// one. Not finite when the magnitude overflows.
    public func value(negative: Bool, token: UnsafeRawBufferPointer) -> Double {
        DecimalConversion.double(mantissa: mantissa, exponent: exponent, inexact: inexact, negative: negative,
                                 token: token)
    }
}
