import OCR

/// Why an editing request was refused. Nothing of a refused request is applied.
///
/// Errors about one operation carry its index, so the app can point at it with ``pointer(ops:)``
/// (`/ops/3/deleteBackward`).
public enum TextInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request has more operations than ``TextInputLimits/maxOps``.
    case tooManyOps(count: Int, limit: Int)
    /// The request's insertions together carry more UTF-8 bytes than ``TextInputLimits/maxTotalInsertUTF8Bytes``.
    case requestTooLarge(utf8Bytes: Int, limit: Int)
    /// The rules' `maxLength` is negative or above ``TextInputLimits/maxMaxLength``.
    case invalidMaxLength(value: Int, limit: Int)
    /// A `deleteBackward` count is zero or negative.
    case invalidDeleteCount(opIndex: Int, count: Int)
    /// An `insertText` carries more UTF-8 bytes than ``TextInputLimits/maxInsertUTF8Bytes``.
    case insertTooLarge(opIndex: Int, utf8Bytes: Int, limit: Int)
    /// An `insertText` carries more characters than ``TextInputLimits/maxInsertCharacters``.
    case insertTooLong(opIndex: Int, characters: Int, limit: Int)
    /// A character has more scalars than ``TextInputLimits/maxScalarsPerCharacter``; `offset` counts characters
    /// within the inserted string.
    case characterTooComplex(opIndex: Int, offset: Int, scalars: Int, limit: Int)
    /// A character the rules' charset refuses; `offset` counts characters within the inserted string.
    case disallowedCharacter(opIndex: Int, offset: Int, character: Character, charset: CharacterHint)
    /// The text would grow past ``TextInputLimits/maxTextUTF8Bytes``.
    case textTooLong(opIndex: Int, utf8Bytes: Int, limit: Int)

    /// The index of the offending operation, when one operation is to blame.
    public var opIndex: Int? {
        switch self {
        case .tooManyOps, .requestTooLarge, .invalidMaxLength: nil
        case let .invalidDeleteCount(index, _), let .insertTooLarge(index, _, _), let .insertTooLong(index, _, _),
             let .characterTooComplex(index, _, _, _), let .disallowedCharacter(index, _, _, _),
             let .textTooLong(index, _, _):
            index
        }
    }

    /// A JSON Pointer to the offending value, given the pointer of the ops array in the request
    /// (`/ops/3/deleteBackward`, `/ops/0/insertText`, or the array itself for errors about the whole request); `nil` for a rules error,
    /// whose place in a request only the app knows.
    public func pointer(ops opsPointer: String = "/ops") -> String? {
        switch self {
        case .tooManyOps, .requestTooLarge: opsPointer
        case .invalidMaxLength: nil
        case let .invalidDeleteCount(index, _): "\(opsPointer)/\(index)/\(TextInputOp.Kind.deleteBackward.rawValue)"
        case let .insertTooLarge(index, _, _), let .insertTooLong(index, _, _),
             let .characterTooComplex(index, _, _, _), let .disallowedCharacter(index, _, _, _),
             let .textTooLong(index, _, _):
            "\(opsPointer)/\(index)/\(TextInputOp.Kind.insertText.rawValue)"
        }
    }

    /// A one-line explanation for API error details.
    public var description: String {
        switch self {
        case let .tooManyOps(count, limit):
            "\(count) operations in one request; the limit is \(limit)"
        case let .requestTooLarge(bytes, limit):
            "the request inserts \(bytes) UTF-8 bytes in all; the limit is \(limit)"
        case let .invalidMaxLength(value, limit):
            "maxLength \(value) is out of range; allowed: 0...\(limit)"
        case let .invalidDeleteCount(index, count):
            "operation \(index): deleteBackward count \(count) must be at least 1"
        case let .insertTooLarge(index, bytes, limit):
            "operation \(index): inserted text is \(bytes) UTF-8 bytes; the limit is \(limit)"
        case let .insertTooLong(index, characters, limit):
            "operation \(index): inserted text is \(characters) characters; the limit is \(limit)"
        case let .characterTooComplex(index, offset, scalars, limit):
            "operation \(index): character \(offset) has \(scalars) Unicode scalars; the limit is \(limit)"
        case let .disallowedCharacter(index, offset, character, charset):
            "operation \(index): character \(offset) \(Self.describe(character)) is not allowed in a "
                + "'\(charset.rawValue)' field"
        case let .textTooLong(index, bytes, limit):
            "operation \(index): the text would be \(bytes) UTF-8 bytes; the limit is \(limit)"
        }
    }

    /// A character with its code points, since the offending one is often invisible or confusable.
    private static func describe(_ character: Character) -> String {
        let codes = character.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "\(character.debugDescription) (\(codes.joined(separator: " ")))"
    }
}
