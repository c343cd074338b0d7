import OCR
import TextLayout

/// What a sticker's field accepts, like a `UITextField`'s keyboard type plus a passcode-style length limit.
public struct TextInputRules: Sendable, Equatable {
    /// The most characters (grapheme clusters) the text may hold, or `nil` for no limit beyond
    /// ``TextInputLimits/maxTextUTF8Bytes``.
    public var maxLength: Int?
    /// Which characters insertions may contain (`CharacterHint.allowsTyping`).
    public var charset: CharacterHint

    /// Creates rules; the default accepts any text of any length.
    public init(maxLength: Int? = nil, charset: CharacterHint = .text) {
        self.maxLength = maxLength
        self.charset = charset
    }
}

/// Server-side bounds on one editing request, whatever the rules say.
public struct TextInputLimits: Sendable, Equatable {
    /// The most operations in one request (default 1,000).
    public var maxOps: Int
    /// The most characters one `insertText` may carry (default 1,000).
    public var maxInsertCharacters: Int
    /// The most UTF-8 bytes one `insertText` may carry (default 8 KiB); checked before anything is counted, so a huge
    /// string costs no grapheme segmentation.
    public var maxInsertUTF8Bytes: Int
    /// The most UTF-8 bytes all `insertText` operations of one request may carry together (default 64 KiB). Checked
    /// before any work, it bounds a request's cost (validation and insertion take roughly 0.1–0.25 µs per character,
    /// so a request at the cap costs a few milliseconds).
    public var maxTotalInsertUTF8Bytes: Int
    /// The most Unicode scalars in one inserted character (default 32). A ZWJ family or a tag-sequence flag has 7;
    /// a "character" of hundreds of stacked combining marks is abuse, not writing.
    public var maxScalarsPerCharacter: Int
    /// The largest text an edit may produce, in UTF-8 bytes (default: the most text layout measures, 16 KiB).
    public var maxTextUTF8Bytes: Int
    /// The largest `maxLength` a rule may set (default 10,000 characters).
    public var maxMaxLength: Int

    /// Creates limits; every parameter has the documented default.
    public init(
        maxOps: Int = 1_000,
        maxInsertCharacters: Int = 1_000,
        maxInsertUTF8Bytes: Int = 8_192,
        maxTotalInsertUTF8Bytes: Int = 65_536,
        maxScalarsPerCharacter: Int = 32,
        maxTextUTF8Bytes: Int = TextLayoutLimits().maxTextUTF8Bytes,
        maxMaxLength: Int = 10_000
    ) {
        self.maxOps = maxOps
        self.maxInsertCharacters = maxInsertCharacters
        self.maxInsertUTF8Bytes = maxInsertUTF8Bytes
        self.maxTotalInsertUTF8Bytes = maxTotalInsertUTF8Bytes
        self.maxScalarsPerCharacter = maxScalarsPerCharacter
        self.maxTextUTF8Bytes = maxTextUTF8Bytes
        self.maxMaxLength = maxMaxLength
    }
}

extension CharacterHint {
    /// Whether `character` may be typed into a field with this charset, like a `UITextField`'s
    /// keyboard: stricter than what recognition reads under the same hint (`allows`), so stored
    /// values stay machine-readable.
    /// - text: anything but control characters; `"\n"` is allowed, for multi-line labels.
    /// - digits: ASCII `0`–`9` only, like `keyboardType = .numberPad` (other scripts' digits such
    ///   as `٣` or `３` are refused: a number pad does not type them).
    /// - number: ASCII digits plus `.` `,` `-` `+` `/` `:` and the space: amounts, dates, times,
    ///   fractions and phone numbers.
    public func allowsTyping(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        // A digit with a combining mark is not a digit.
        let single = scalars.count == 1 ? scalars.first : nil
        switch self {
        case .text:
            return character == "\n" || !scalars.contains { $0.properties.generalCategory == .control }
        case .digits:
            return single.map { (0x30...0x39).contains($0.value) } ?? false
        case .number:
            return single.map { (0x30...0x39).contains($0.value) || Self.typedNumberPunctuation.contains($0) } ?? false
        }
    }

    private static let typedNumberPunctuation: Set<Unicode.Scalar> = [".", ",", "-", "+", "/", ":", " "]
}
