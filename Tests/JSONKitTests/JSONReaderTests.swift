import Testing
@testable import JSONKit

/// Parses `text` as UTF-8 bytes.
func parse(_ text: String, limits: JSONReader.Limits = .init()) throws(JSONParseError) -> JSONValue {
    try JSONReader.parse(Array(text.utf8), limits: limits)
}

/// The error the reader throws for `bytes`, or `nil` if it accepted them.
func parseError(_ bytes: [UInt8], limits: JSONReader.Limits = .init()) -> JSONParseError? {
    do {
        _ = try JSONReader.parse(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

func parseError(_ text: String, limits: JSONReader.Limits = .init()) -> JSONParseError? {
    parseError(Array(text.utf8), limits: limits)
}

@Suite struct JSONReaderAcceptanceTests {
    @Test func scalarsAtTopLevel() throws {
        #expect(try parse("null") == .null)
        #expect(try parse(" true ") == .bool(true))
        #expect(try parse("\tfalse\r\n") == .bool(false))
        #expect(try parse("-12.5e1") == .number(-125))
        #expect(try parse(#""hi""#) == .string("hi"))
    }

    @Test func objectsKeepOrderAndNumberArraysAreUnboxed() throws {
        let value = try parse(#"{"b": [1, 2.5, -3e2], "a": {"c": []}, "z": [1, "x", null]}"#)
        guard case let .object(object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object.keys == ["b", "a", "z"])
        guard case let .numbers(numbers)? = object["b"] else {
            Issue.record("an all-number array should be parsed as .numbers")
            return
        }
        #expect(numbers == [1, 2.5, -300])
        #expect(object["a"]?["c"] == .array([]))
        // A mixed array switches to boxed elements and keeps the numbers seen before the switch.
        #expect(object["z"] == .array([.number(1), .string("x"), .null]))
    }

    @Test func numbersAndBoxedArraysCompareEqual() throws {
        #expect(try parse("[1,2]") == [1, 2])
        #expect(JSONValue.numbers([1, 2]) != [1, 3])
        #expect(JSONValue.numbers([1, 2]) != [1, 2, 3])
    }

    @Test func emptyContainersAndWhitespace() throws {
        #expect(try parse(" [ ] ") == .array([]))
        #expect(try parse("{ }") == .object(JSONObject()))
        #expect(try parse("[ [ ] , { } ]") == [[], [:]])
    }

    @Test func escapesAreDecoded() throws {
        #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
        #expect(try parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func surrogatePairsBecomeOneScalar() throws {
        // U+1F600 GRINNING FACE is D83D DE00 in UTF-16.
        let value = try parse(#""x\uD83D\uDE00y""#)
        #expect(value == .string("x\u{1F600}y"))
        #expect(value.stringValue?.unicodeScalars.count == 3)
        // U+10FFFF, the last scalar: DBFF DFFF.
        #expect(try parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    }

    @Test func rawUTF8IsKept() throws {
        #expect(try parse("\"héllo wörld 日本 \u{1F600}\"") == .string("héllo wörld 日本 \u{1F600}"))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = 64
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try parse(text) }
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: Never.self) { try parse(objects) }
    }
}

@Suite struct JSONReaderRejectionTests {
    @Test(arguments: [
        ("", JSONParseError.Reason.unexpectedEndOfInput, 0),
        ("   ", .unexpectedEndOfInput, 3),
        ("[1,]", .unexpectedCharacter(UInt8(ascii: "]")), 3),
        ("[1 2]", .unexpectedCharacter(UInt8(ascii: "2")), 3),
        ("{\"a\" 1}", .unexpectedCharacter(UInt8(ascii: "1")), 5),
        ("{\"a\":1,}", .expectedKey, 7),
        ("{a:1}", .expectedKey, 1),
        ("[1] x", .trailingCharacters, 4),
        ("{} {}", .trailingCharacters, 3),
        ("nul", .unexpectedEndOfInput, 3),
        ("nulL", .unexpectedCharacter(UInt8(ascii: "L")), 3),
        ("NaN", .unexpectedCharacter(UInt8(ascii: "N")), 0),
        ("[Infinity]", .unexpectedCharacter(UInt8(ascii: "I")), 1),
        ("-Infinity", .invalidNumber, 1),
        ("01", .leadingZero, 0),
        ("-00.5", .leadingZero, 0),
        ("1.", .unexpectedEndOfInput, 2),
        ("[1.]", .invalidNumber, 3),
        (".5", .unexpectedCharacter(UInt8(ascii: ".")), 0),
        ("+1", .unexpectedCharacter(UInt8(ascii: "+")), 0),
        ("1e", .unexpectedEndOfInput, 2),
        ("[1e+]", .invalidNumber, 4),
        ("[-]", .invalidNumber, 2),
        ("0x10", .trailingCharacters, 1),
        ("1e999", .numberOutOfRange, 0),
        ("[-1e400]", .numberOutOfRange, 1),
        (#""\x""#, .invalidEscape, 1),
        (#""\u12G4""#, .invalidUnicodeEscape, 5),
        (#""\u12""#, .invalidUnicodeEscape, 3),
        (#""\uD800""#, .loneSurrogate, 1),
        (#""\uDC00""#, .loneSurrogate, 1),
        (#""\uD800\u0041""#, .loneSurrogate, 1),
        (#""\uD800x""#, .loneSurrogate, 1),
        (#""abc"#, .unexpectedEndOfInput, 4),
        (#"{"a":1,"a":2}"#, .duplicateKey("a"), 7),
    ] as [(String, JSONParseError.Reason, Int)])
    func rejectsMalformedText(text: String, reason: JSONParseError.Reason, offset: Int) {
        let error = parseError(text)
        #expect(error?.reason == reason, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }

    @Test func controlCharactersInStringsAreRejected() {
        for byte in UInt8(0)..<0x20 {
            let error = parseError([0x22, 0x61, byte, 0x22])
            #expect(error == JSONParseError(.controlCharacterInString(byte), at: 2))
        }
        // DEL (0x7F) is not a control character in JSON's sense.
        #expect(parseError([0x22, 0x7F, 0x22]) == nil)
    }

    @Test(arguments: [
        [0x22, 0x80, 0x22],                   // continuation byte as a lead
        [0x22, 0xC0, 0xAF, 0x22],             // overlong '/'
        [0x22, 0xC1, 0xBF, 0x22],             // overlong
        [0x22, 0xE0, 0x80, 0xAF, 0x22],       // overlong 3-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],       // encoded surrogate U+D800
        [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], // overlong 4-byte
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // U+110000
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], // lead byte never valid
        [0x22, 0xFF, 0x22],
        [0x22, 0xE2, 0x82, 0x22],             // truncated €
        [0x22, 0xC3],                         // truncated at end of input
    ] as [[UInt8]])
    func invalidUTF8InStringsIsRejected(bytes: [UInt8]) {
        let error = parseError(bytes)
        #expect(error == JSONParseError(.invalidUTF8, at: 1))
    }

    @Test func invalidUTF8OutsideStringsIsRejected() {
        #expect(parseError([0xEF, 0xBB, 0xBF, 0x31]) == JSONParseError(.unexpectedCharacter(0xEF), at: 0), "a BOM is not JSON")
        #expect(parseError([0x5B, 0x31, 0xC3, 0xA9, 0x5D])?.offset == 2)
        // Valid multi-byte UTF-8 is still not allowed between tokens.
        #expect(parseError(Array("[1,\u{00A0}2]".utf8))?.reason == .unexpectedCharacter(0xC2))
    }

    @Test func tenThousandOpenBracketsFailCleanlyAtTheLimit() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        let error = parseError(bytes)
        #expect(error == JSONParseError(.depthLimitExceeded(limit: 64), at: 64))
        let objects = Array(String(repeating: #"{"a":"#, count: 10_000).utf8)
        #expect(parseError(objects)?.reason == .depthLimitExceeded(limit: 64))
    }

    @Test func depthLimitIsConfigurable() {
        #expect(parseError("[[1]]", limits: .init(maxDepth: 1)) == JSONParseError(.depthLimitExceeded(limit: 1), at: 1))
        #expect(parseError("[[1]]", limits: .init(maxDepth: 2)) == nil)
        #expect(parseError("1", limits: .init(maxDepth: 0)) == nil)
    }

    @Test func stringAndNumberLengthLimits() {
        let limits = JSONReader.Limits(maxStringLength: 4, maxNumberLength: 5)
        #expect(parseError(#"["abcd"]"#, limits: limits) == nil)
        #expect(parseError(#"["abcde"]"#, limits: limits) == JSONParseError(.stringTooLong(limit: 4), at: 1))
        // The limit applies after unescaping: six escape bytes make one byte.
        #expect(parseError(#"["\u0041bcd"]"#, limits: limits) == nil)
        #expect(parseError(#"{"abcde":1}"#, limits: limits)?.reason == .stringTooLong(limit: 4))
        #expect(parseError("12345", limits: limits) == nil)
        #expect(parseError("[123456]", limits: limits) == JSONParseError(.numberTooLong(limit: 5), at: 1))
    }

    @Test func messagesNameTheCharacterAndByte() {
        #expect(parseError(#"{"title": x}"#)?.message == "unexpected character 'x' at byte 10")
        #expect(parseError([0x5B, 0x01])?.message == "unexpected byte 0x01 at byte 1")
        #expect(parseError(#"{"a":1,"a":2}"#)?.message == #"duplicate key "a" at byte 7"#)
    }
}
