import Testing
import JSONKit

/// The digit scanner the JSON and InkML number grammars share, driven from bytes.
@Suite struct DecimalDigitsTests {
    /// Scans `integer[.fraction][e±exponent]` the way a grammar would and returns the value and
    /// where each run ended.
    private func scan(_ text: String) -> (value: Double, ends: [Int]) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var digits = DecimalDigits()
            var ends: [Int] = []
            var position = digits.scanInteger(buffer, from: 0)
            ends.append(position)
            if position < buffer.count, buffer[position] == UInt8(ascii: ".") {
                position = digits.scanFraction(buffer, from: position + 1)
                ends.append(position)
            }
            if position < buffer.count, buffer[position] == UInt8(ascii: "e") {
                let negative = position + 1 < buffer.count && buffer[position + 1] == UInt8(ascii: "-")
                position = digits.scanExponent(buffer, from: position + (negative ? 2 : 1), negative: negative)
                ends.append(position)
            }
            let token = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<position])
            return (digits.value(negative: false, token: token), ends)
        }
    }

    @Test(arguments: [
        "0", "7", "000123", "0.5", "00.000125", "123.456", "1e22", "1e23", "5e-324", "1.5e300",
        "9007199254740993", "18446744073709551616", "12345678901234567890123", "0.1000000000000000055511151231257827021181583404541015625",
        "1e1000000000",
    ])
    func agreesWithSwiftsOwnConversion(_ text: String) throws {
        let expected = try #require(Double(text))
        #expect(scan(text).value == expected, "\(text)")
    }

    @Test func eachRunStopsAtTheFirstNonDigit() {
        #expect(scan("12x").ends == [2])
        #expect(scan("12.5.5").ends == [2, 4])
        #expect(scan(".").ends == [0, 1])
        #expect(scan("3e-7,").ends == [1, 4])
    }

    @Test func overflowIsNotFinite() {
        #expect(scan("1e400").value.isInfinite)
        #expect(scan("1" + String(repeating: "0", count: 400)).value.isInfinite)
    }
}
