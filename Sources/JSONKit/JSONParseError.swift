/// Why and where the reader rejected a document.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule a document broke.
    public enum Reason: Sendable, Equatable {
        /// A byte that cannot start or continue what was expected here (includes `NaN`, `Infinity`, BOMs).
        case unexpectedCharacter(UInt8)
        /// The document ended inside a value (or was empty).
        case unexpectedEndOfInput
        /// Something other than whitespace follows the top-level value.
        case trailingCharacters
        /// A number that does not follow the RFC 8259 §6 grammar (`1.`, `.5`, `+1`, `-`, `1e`).
        case invalidNumber
        /// A number with a superfluous leading zero (`01`, `-00.5`).
        case leadingZero
        /// A number whose magnitude overflows a `Double` (`1e999`).
        case numberOutOfRange
        /// A number token longer than `Limits.maxNumberLength` bytes.
        case numberTooLong(limit: Int)
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\u` escape without four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\uD800`–`\uDFFF` escape that is not half of a high/low surrogate pair.
        case loneSurrogate
        /// Bytes that are not well-formed UTF-8 (overlong, surrogate, truncated, > U+10FFFF).
        case invalidUTF8
        /// An unescaped control character (U+0000–U+001F) inside a string.
        case controlCharacterInString(UInt8)
        /// Arrays and objects nested deeper than `Limits.maxDepth`.
        case depthLimitExceeded(limit: Int)
        /// A string longer than `Limits.maxStringLength` UTF-8 bytes once unescaped.
        case stringTooLong(limit: Int)
        /// The same key twice in one object.
        case duplicateKey(String)
        /// An object key that is not a string, or a missing `:`.
        case expectedKey
    }

    /// The rule that was broken.
    public let reason: Reason
    /// Byte offset from the start of the input where the problem was found.
    public let offset: Int

    /// Creates an error.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// A one-line human message, e.g. "unexpected character 'x' at byte 17".
    public var message: String {
        "\(what) at byte \(offset)"
    }

    /// Same as `message`.
    public var description: String { message }

    private var what: String {
        switch reason {
        case let .unexpectedCharacter(byte): "unexpected \(Self.describe(byte))"
        case .unexpectedEndOfInput: "unexpected end of input"
        case .trailingCharacters: "unexpected data after the JSON value"
        case .invalidNumber: "invalid number"
        case .leadingZero: "number with a leading zero"
        case .numberOutOfRange: "number out of range"
        case let .numberTooLong(limit): "number longer than \(limit) bytes"
        case .invalidEscape: "invalid escape sequence"
        case .invalidUnicodeEscape: "invalid \\u escape (needs four hex digits)"
        case .loneSurrogate: "unpaired UTF-16 surrogate escape"
        case .invalidUTF8: "invalid UTF-8"
        case let .controlCharacterInString(byte): "unescaped control character \(Self.hex(byte)) in string"
        case let .depthLimitExceeded(limit): "nesting deeper than \(limit) levels"
        case let .stringTooLong(limit): "string longer than \(limit) bytes"
        case let .duplicateKey(key): "duplicate key \"\(key)\""
        case .expectedKey: "expected a string key"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }
}
