import Testing
@testable import JSONKit

/// The reader's numbers against Swift's own correctly rounded `Double(String)`.
@Suite struct JSONNumberTests {
    private func number(_ text: String) throws -> Double {
        let value = try parse(text)
        guard case let .number(number) = value else {
            Issue.record("\(text) did not parse as a number")
            return .nan
        }
        return number
    }

    @Test(arguments: [
        "0", "-0", "1", "-1", "0.1", "0.2", "0.3", "569.03", "1391", "123456789012345678",
        "9007199254740992", "9007199254740993", "18446744073709551615", "18446744073709551616",
        "1e22", "1e23", "1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324",
        "1e-400", "2.4703282292062328e-324", "0.1000000000000000055511151231257827021181583404541015625",
        "123.456e-3", "1E2", "1e+2", "1e-2", "100000000000000000000000000000000000000000e-40",
        "0.00000000000000000000000000000000000000000001", "7.038531e-26",
        "89255.0e-22", "3.0e-44", "1.00000005960464477550", "9007199254740993.0000000001",
    ])
    func matchesCorrectlyRoundedConversion(text: String) throws {
        let expected = try #require(Double(text))
        let actual = try number(text)
        #expect(actual.bitPattern == expected.bitPattern, "\(text): \(actual) vs \(expected)")
    }

    @Test func randomDecimalsMatchCorrectRounding() throws {
        // Deterministic pseudo-random decimals across both the fast path (short mantissas,
        // small exponents) and the strtod fallback (long mantissas, large exponents).
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            let digits = Int(generator.next() % 25) + 1
            var mantissa = ""
            for index in 0..<digits {
                let digit = generator.next() % 10
                mantissa.append(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(index == 0 ? max(digit, 1) : digit))))
            }
            let pointAt = Int(generator.next() % UInt64(digits + 1))
            var text = String(mantissa.prefix(pointAt)) + (pointAt < digits ? "." + mantissa.dropFirst(pointAt) : "")
            if text.hasPrefix(".") { text = "0" + text }
            if generator.next() % 2 == 0 { text += "e\(Int(generator.next() % 80) - 40)" }
            if generator.next() % 2 == 0 { text = "-" + text }
            let expected = try #require(Double(text), "\(text)")
            let actual = try number(text)
            guard actual.bitPattern == expected.bitPattern else {
                Issue.record("\(text): \(actual) vs \(expected)")
                return
            }
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        #expect(try number("-0").sign == .minus)
        #expect(try number("-0.0e5").sign == .minus)
    }
}

/// A small deterministic generator (SplitMix64), so failures are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
