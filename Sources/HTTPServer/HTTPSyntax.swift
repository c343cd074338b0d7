/// Character classes from RFC 9110 §5.6 used by the parser.
enum HTTPSyntax {
    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    static let tokenTable: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(c)] = true }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(c)] = true }
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(c)] = true }
        for c in "!#$%&'*+-.^_`|~".utf8 { table[Int(c)] = true }
        return table
    }()

    @inline(__always)
    static func isTokenChar(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

    /// field-vchar / SP / HTAB / obs-text; control characters (including CR, LF, NUL) are not allowed
    /// in a field value (RFC 9110 §5.5).
    @inline(__always)
    static func isFieldValueChar(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// Visible ASCII allowed in a request-target; anything else (spaces, controls, raw non-ASCII) is rejected.
    @inline(__always)
    static func isTargetChar(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
