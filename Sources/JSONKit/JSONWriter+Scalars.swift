extension JSONWriter {
    /// Appends JSON text that is already well formed (a member name with its quotes and colon, say).
    public static func appendLiteral(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted JSON string (RFC 8259 §7): the one JSON string escaper of the
    /// project (responses, problem details, access and application logs).
    public static func appendString(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &output) }
    }

    /// `appendString(_:to:)` for part of a string, without copying it out first.
    public static func appendString(_ text: Substring, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &output) }
    }

    private static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `number`: integers (|n| ≤ 2^53) as digits, others in shortest round-trip form,
    /// non-finite values as `null`.
    static func appendNumber(_ number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            output.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
            return
        }
        if number == 0 {
            if number.sign == .minus { output.append(UInt8(ascii: "-")) }
            output.append(UInt8(ascii: "0"))
            return
        }
        if let integer = JSONValue.exactInt(number) {
            appendInteger(integer, to: &output)
            return
        }
        // Swift's description is the shortest digit string that reads back to the same Double,
        // and its forms ("0.1", "1e-07", "1.2e+20") are all valid JSON numbers.
        output.append(contentsOf: number.description.utf8)
    }

    /// Appends `integer` in decimal, without allocating.
    public static func appendInteger(_ integer: Int, to output: inout [UInt8]) {
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }
}
