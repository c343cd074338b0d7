/// One key-input operation on a sticker's text, as a `UIKeyInput` client produces them.
public enum TextInputOp: Sendable, Equatable {
    /// Types `text` at the end of the field (`insertText(_:)`).
    case insertText(String)
    /// Presses backspace `count` times (`deleteBackward()`), each press removing one whole character.
    case deleteBackward(count: Int)

    /// The operation's name, which is also its key in the request's JSON.
    public enum Kind: String, Sendable, CaseIterable {
        /// ``TextInputOp/insertText(_:)``.
        case insertText
        /// ``TextInputOp/deleteBackward(count:)``.
        case deleteBackward
    }

    /// This operation's ``Kind``.
    public var kind: Kind {
        switch self {
        case .insertText: .insertText
        case .deleteBackward: .deleteBackward
        }
    }
}

/// Applies key-input operations to text, by whole characters.
///
/// ### Characters
/// Everything counts in Swift `Character`s, i.e. extended grapheme clusters, which is what a user sees as one
/// character and what one backspace removes on iOS: a Hangul syllable (precomposed or as conjoining jamo), a flag,
/// an emoji with its skin-tone modifier, a ZWJ family, a letter with its combining marks.
///
/// ### Length limit
/// With ``TextInputRules/maxLength`` set, an insertion keeps the longest prefix of its characters for which the whole
/// text still has at most `maxLength` characters, and silently drops the rest, as a passcode field ignores digits
/// typed once it is full. The count is of the resulting text, so a combining mark that joins the last character
/// still fits in a full field, and a text already longer than `maxLength` (stored before the rule) accepts no
/// insertion until it is shortened; deletions always work.
///
/// ### Validation and atomicity
/// Every operation is checked before its effect is computed, and the first problem throws: a character outside the
/// charset (the whole inserted string is checked, including characters the length limit would drop), a count below
/// 1, or a limit of ``TextInputLimits``. The input text is a value, so a throwing request changes nothing: all the
/// operations of one request apply, or none does.
///
/// ### Deleting
/// `deleteBackward(count:)` removes up to `count` characters from the end; deleting past the start just empties the
/// text (the count clamps), like backspace in an empty field.
public enum TextInput {
    /// Applies `ops` in order to `text` under `rules` and returns the edited text.
    ///
    /// - Throws: ``TextInputError``, naming the operation at fault where one is; nothing is applied then.
    public static func apply(
        _ ops: [TextInputOp],
        to text: String,
        rules: TextInputRules,
        limits: TextInputLimits = TextInputLimits()
    ) throws(TextInputError) -> String {
        guard ops.count <= limits.maxOps else {
            throw .tooManyOps(count: ops.count, limit: limits.maxOps)
        }
        if let maxLength = rules.maxLength, !(0...limits.maxMaxLength).contains(maxLength) {
            throw .invalidMaxLength(value: maxLength, limit: limits.maxMaxLength)
        }
        var result = text
        for (index, op) in ops.enumerated() {
            switch op {
            case let .insertText(inserted):
                try validate(inserted, opIndex: index, rules: rules, limits: limits)
                result = insert(inserted, into: result, maxLength: rules.maxLength)
                let bytes = result.utf8.count
                guard bytes <= limits.maxTextUTF8Bytes else {
                    throw .textTooLong(opIndex: index, utf8Bytes: bytes, limit: limits.maxTextUTF8Bytes)
                }
            case let .deleteBackward(count):
                guard count >= 1 else { throw .invalidDeleteCount(opIndex: index, count: count) }
                deleteBackward(count, from: &result)
            }
        }
        return result
    }

    /// Checks one inserted string against the limits and the charset.
    private static func validate(
        _ inserted: String, opIndex: Int, rules: TextInputRules, limits: TextInputLimits
    ) throws(TextInputError) {
        let bytes = inserted.utf8.count
        guard bytes <= limits.maxInsertUTF8Bytes else {
            throw .insertTooLarge(opIndex: opIndex, utf8Bytes: bytes, limit: limits.maxInsertUTF8Bytes)
        }
        var offset = 0
        for character in inserted {
            let scalars = character.unicodeScalars.count
            guard scalars <= limits.maxScalarsPerCharacter else {
                throw .characterTooComplex(opIndex: opIndex, offset: offset, scalars: scalars,
                                           limit: limits.maxScalarsPerCharacter)
            }
            guard rules.charset.allows(character) else {
                throw .disallowedCharacter(opIndex: opIndex, offset: offset, character: character,
                                           charset: rules.charset)
            }
            offset += 1
        }
        guard offset <= limits.maxInsertCharacters else {
            throw .insertTooLong(opIndex: opIndex, characters: offset, limit: limits.maxInsertCharacters)
        }
    }

    /// `text` followed by the longest prefix of `inserted` that keeps the result within `maxLength` characters.
    ///
    /// Appending never removes a character boundary that already exists (grapheme breaking looks only at what comes
    /// before a position and the next scalar), so the result's length grows monotonically with the prefix and a
    /// binary search finds the longest prefix that fits. The length is always that of the concatenation, because
    /// clusters can merge across the seam (a combining mark, a second regional indicator).
    static func insert(_ inserted: String, into text: String, maxLength: Int?) -> String {
        let whole = text + inserted
        guard let maxLength, whole.count > maxLength else { return whole }
        let characters = Array(inserted)
        var fits = 0  // the longest prefix known to fit
        var tooLong = characters.count  // the shortest prefix known not to fit
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            if (text + String(characters[..<middle])).count <= maxLength {
                fits = middle
            } else {
                tooLong = middle
            }
        }
        return text + String(characters[..<fits])
    }

    /// Removes up to `count` characters from the end of `text`, in time proportional to what is removed.
    static func deleteBackward(_ count: Int, from text: inout String) {
        var remaining = count
        while remaining > 0, !text.isEmpty {
            text.removeLast()
            remaining -= 1
        }
    }
}
