/// The recursive-descent core of `JSONReader`, over a raw byte buffer the caller keeps alive.
///
/// Positions are plain integer offsets so that every error can name its byte; all reads go
/// through `base[pos]` after an explicit `pos < count` check, never past the end.
struct JSONParser {
    let base: UnsafePointer<UInt8>
    let count: Int
    let limits: JSONReader.Limits
    var pos = 0
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int, limits: JSONReader.Limits) {
        self.base = base
        self.count = count
        self.limits = limits
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard pos == count else { throw JSONParseError(.trailingCharacters, at: pos) }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < count {
            let byte = base[pos]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            pos += 1
        }
    }

    /// The byte at `pos`, or an end-of-input error.
    @inline(__always)
    func current() throws(JSONParseError) -> UInt8 {
        guard pos < count else { throw JSONParseError(.unexpectedEndOfInput, at: pos) }
        return base[pos]
    }

    /// Parses the value starting at `pos` (whitespace already skipped). `depth` counts the
    /// arrays and objects around it.
    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        let byte = try current()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONParseError(.unexpectedCharacter(byte), at: pos)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in bytes {
            let byte = try current()
            guard byte == expected else { throw JSONParseError(.unexpectedCharacter(byte), at: pos) }
            pos += 1
        }
    }

    /// `[` at `pos`. All-number arrays are collected unboxed until the first non-number element.
    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw JSONParseError(.depthLimitExceeded(limit: limits.maxDepth), at: pos) }
        pos += 1
        skipWhitespace()
        if try current() == UInt8(ascii: "]") {
            pos += 1
            return .array([])
        }
        var numbers: [Double] = []
        var elements: [JSONValue] = []
        var allNumbers = true
        while true {
            skipWhitespace()
            let byte = try current()
            if allNumbers, byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                numbers.append(try parseNumber())
            } else {
                if allNumbers {
                    allNumbers = false
                    elements.reserveCapacity(numbers.count + 1)
                    for number in numbers { elements.append(.number(number)) }
                    numbers = []
                }
                elements.append(try parseValue(depth: depth))
            }
            skipWhitespace()
            let separator = try current()
            pos += 1
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "]") { break }
            throw JSONParseError(.unexpectedCharacter(separator), at: pos - 1)
        }
        return allNumbers ? .numbers(numbers) : .array(elements)
    }

    /// `{` at `pos`. Duplicate keys are rejected; past `JSONObject.indexThreshold` keys the
    /// check goes through a dictionary so it stays linear.
    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw JSONParseError(.depthLimitExceeded(limit: limits.maxDepth), at: pos) }
        pos += 1
        skipWhitespace()
        if try current() == UInt8(ascii: "}") {
            pos += 1
            return .object(JSONObject())
        }
        var keys: [String] = []
        var values: [JSONValue] = []
        var index: [String: Int]?
        while true {
            skipWhitespace()
            let keyStart = pos
            guard try current() == UInt8(ascii: "\"") else { throw JSONParseError(.expectedKey, at: pos) }
            let key = try parseString()
            if let existing = index {
                if existing[key] != nil { throw JSONParseError(.duplicateKey(key), at: keyStart) }
                index?[key] = keys.count
            } else {
                if keys.contains(key) { throw JSONParseError(.duplicateKey(key), at: keyStart) }
                if keys.count == JSONObject.indexThreshold {
                    var built = [String: Int](minimumCapacity: 2 * JSONObject.indexThreshold)
                    for (position, existingKey) in keys.enumerated() { built[existingKey] = position }
                    built[key] = keys.count
                    index = built
                }
            }
            skipWhitespace()
            let colon = try current()
            guard colon == UInt8(ascii: ":") else { throw JSONParseError(.unexpectedCharacter(colon), at: pos) }
            pos += 1
            skipWhitespace()
            keys.append(key)
            values.append(try parseValue(depth: depth))
            skipWhitespace()
            let separator = try current()
            pos += 1
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "}") { break }
            throw JSONParseError(.unexpectedCharacter(separator), at: pos - 1)
        }
        return .object(JSONObject(uniqueKeys: keys, values: values, index: index))
    }
}
