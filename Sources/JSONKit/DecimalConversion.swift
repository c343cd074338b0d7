#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `C` numeric locale for `strtod`, so a process that called `setlocale` with a locale whose
/// decimal separator is a comma still reads numbers correctly.
/// `nonisolated(unsafe)`: the handle is created once (Swift globals are initialised exactly
/// once, thread-safely) and never mutated or freed.
nonisolated(unsafe) private let cNumericLocale = newlocale(1 << LC_NUMERIC, "C", nil)

/// 10^0 … 10^22: every one is exactly representable as a `Double`.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Correctly rounded decimal → `Double`, shared by every number scanner (JSON, InkML).
///
/// A scanner gathers up to 19 significant digits into `mantissa` with a decimal `exponent` and
/// notes whether a non-zero digit did not fit (`inexact`). When the mantissa is at most 2^53 and
/// the exponent within ±22, both operands are exact and IEEE multiplication/division rounds once,
/// so the result is correctly rounded (Clinger 1990). Everything else goes to `strtod` on the
/// token in the C locale, which is correctly rounded in glibc.
enum DecimalConversion {
    /// The value of a scanned decimal. `token` is the number's text as written (with its sign when
    /// it has one); `negative` applies the sign on the fast path. Non-finite results mean overflow.
    static func double(mantissa: UInt64, exponent: Int, inexact: Bool, negative: Bool,
                              token: UnsafeRawBufferPointer) -> Double {
        if !inexact {
            if exponent == 0 {
                // UInt64 → Double conversion is itself correctly rounded.
                let value = Double(mantissa)
                return negative ? -value : value
            }
            if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
                let value = Double(mantissa)
                let scaled = exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
                return negative ? -scaled : scaled
            }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { buffer -> Double in
            guard let text = buffer.baseAddress else { return .nan }
            if let source = token.baseAddress {
                UnsafeMutableRawPointer(text).copyMemory(from: source, byteCount: token.count)
            }
            text[token.count] = 0
            let previous = uselocale(cNumericLocale)
            defer { uselocale(previous) }
            return strtod(text, nil)
        }
    }
}
