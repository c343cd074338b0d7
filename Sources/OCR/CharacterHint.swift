/// What a field is expected to contain, used as a *soft* whitelist.
///
/// Tesseract 5.3's `tessedit_char_whitelist` is not used: when the LSTM's best character is not
/// in the whitelist it returns nothing at all for the symbol (often for the whole line), which is
/// worse than an imperfect guess. Instead recognition runs unconstrained and each symbol is then
/// resolved against the hint (see `CharacterHint.resolve(_:)`).
public enum CharacterHint: String, Sendable, Hashable, CaseIterable {
    /// No constraint.
    case text
    /// `0`–`9` only: quantities, codes, PINs.
    case digits
    /// What people write when they write "a number" by hand:
    /// - prices: `$24.59`, `12,50 €`, `£3`, `¥1200`, `50¢`;
    /// - decimals and thousands separators: `3.14`, `90,187,236.54`;
    /// - signed and negative numbers: `-9`, `+1`, accounting `(500)`;
    /// - dates: `2023-03-16`, `16.3.2023`, `11/11`;
    /// - times and ratios: `3:30`, `16:9`;
    /// - percentages: `15.08%`;
    /// - phone numbers: `(212) 753-8675`, `+44 20 7946`;
    /// - small sums and counts: `238 + 154 = 392`, `16*4`, `3 × 2`, `#100`, `3 @ $1.50`.
    /// Words and letters are outside it. (Without `=`, `*`, `#` and `@`, held-out persons'
    /// composed numbers read worse: such a mark was forced into a digit or dropped.)
    case number

    /// Separators, signs and currency symbols a number is written with: marks that split or
    /// label a number rather than stand for a digit (`LookAlikes.isSeparatorLike`).
    public static let numberSeparators: Set<Character> = [
        ".", ",", "-", "+", "/", ":", "%", "(", ")",
        "$", "€", "£", "¥", "¢", "₹",
    ]
    /// Marks of small sums and counts. Allowed in `.number`; under `.digits` such a reading is
    /// as likely a misread digit as a mark, so the model's digit alternatives are consulted.
    public static let arithmeticSigns: Set<Character> = ["=", "*", "×", "#", "@"]
    /// Everything `.number` allows besides the digits.
    public static let numberPunctuation = numberSeparators.union(arithmeticSigns)

    /// Whether the hint accepts a character.
    public func allows(_ character: Character) -> Bool {
        switch self {
        case .text:
            return true
        case .digits:
            return Self.isDigit(character)
        case .number:
            return Self.isDigit(character) || Self.numberPunctuation.contains(character)
        }
    }

    /// Whether the hint accepts every character of a symbol's text (usually one character;
    /// Tesseract reports ligatures such as "fi" as one symbol).
    public func allows(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { allows($0) }
    }

    /// ASCII digits only: other scripts' digits ("٣", "三") are not what a `digits` field stores.
    static func isDigit(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
    }
}
