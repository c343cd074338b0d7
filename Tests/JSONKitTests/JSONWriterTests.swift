import Testing
@testable import JSONKit

@Suite struct JSONWriterTests {
    private func text(_ value: JSONValue, pretty: Bool = false) -> String {
        JSONWriter(options: .init(prettyPrinted: pretty)).string(value)
    }

    @Test func objectsKeepInsertionOrder() {
        let value: JSONValue = ["zeta": 1, "alpha": true, "mid": .null, "list": ["a", 2.5]]
        #expect(text(value) == #"{"zeta":1,"alpha":true,"mid":null,"list":["a",2.5]}"#)
        let built = JSONValue.object([("id", .string("s1")), ("n", .number(3))])
        #expect(text(built) == #"{"id":"s1","n":3}"#)
    }

    @Test func builderWithRepeatedKeyKeepsFirstPositionAndLastValue() {
        let built = JSONValue.object([("a", 1), ("b", 2), ("a", 3)])
        #expect(text(built) == #"{"a":3,"b":2}"#)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "-0"), (3, "3"), (-42, "-42"), (1e15, "1000000000000000"),
        (9007199254740992, "9007199254740992"), (0.1, "0.1"), (2.5, "2.5"), (-569.03, "-569.03"),
        (1e-7, "1e-07"), (1e300, "1e+300"), (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    ] as [(Double, String)])
    func numbersUseIntegerOrShortestForm(number: Double, expected: String) throws {
        #expect(text(.number(number)) == expected)
        // Whatever the form, it must read back to the identical Double.
        let back = try JSONReader.parse(expected)
        #expect(back.doubleValue?.bitPattern == number.bitPattern)
    }

    @Test func nonFiniteNumbersAreWrittenAsNull() {
        #expect(text([.number(.infinity), .number(-.infinity), .number(.nan)]) == "[null,null,null]")
        #expect(text(.numbers([1, .nan])) == "[1,null]")
    }

    @Test func stringsAreEscapedPerRFC8259() {
        #expect(text("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(text("\u{8}\u{C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(text("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(text("é€\u{1F600}") == "\"é€\u{1F600}\"")
    }

    @Test func prettyPrinting() {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        #expect(text(value, pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
    }

    @Test func roundTripsThroughTheReader() throws {
        let source = #"{"id":"d1-00000","text":"email Sarah\n\"quoted\" \u0001 😀","strokes":[{"x":[569.03,576.62,-1e-07],"y":[843.13,0,1e+300],"t":[1391,1402,1408]}],"ok":true,"none":null,"mixed":[1,"two",[3],{"four":4}]}"#
        let first = try JSONReader.parse(source)
        let written = JSONWriter.write(first)
        let second = try JSONReader.parse(written)
        #expect(second == first)
        // Writing is deterministic and a fixed point after one round.
        #expect(JSONWriter.write(second) == written)
    }

    @Test func roundTripsRandomDoubles() throws {
        var generator = SplitMix64(seed: 42)
        let numbers = (0..<2_000).map { _ in Double(bitPattern: generator.next()) }.filter(\.isFinite)
        let parsed = try JSONReader.parse(JSONWriter.write(.numbers(numbers)))
        #expect(parsed.doubleArray?.map(\.bitPattern) == numbers.map(\.bitPattern))
    }
}
