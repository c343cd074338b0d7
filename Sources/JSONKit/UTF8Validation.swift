/// Well-formed UTF-8 (RFC 3629), checked byte by byte: shared by the JSON parser and the InkML
/// reader's XML scanner, both of which must refuse malformed text rather than repair it.
public enum UTF8Validation {
    /// The length of the well-formed UTF-8 sequence at `offset` (lead byte ≥ 0x80), or nil for
    /// a stray continuation byte, an overlong form, an encoded surrogate (ED A0..BF), a value
    /// past U+10FFFF or a truncated sequence.
    @inlinable
    public static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let second = bytes[offset + 1]
        guard second >= low, second <= high else { return nil }
        for index in 2..<max(length, 2) where bytes[offset + index] & 0xC0 != 0x80 { return nil }
        return length
    }
}
