import OCR

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
        var totalBytes = 0
        for case let .insertText(inserted) in ops {
            totalBytes += inserted.utf8.count
        }
        guard totalBytes <= limits.maxTotalInsertUTF8Bytes else {
            throw .requestTooLarge(utf8Bytes: totalBytes, limit: limits.maxTotalInsertUTF8Bytes)
        }
        if let maxLength = rules.maxLength, !(0...limits.maxMaxLength).contains(maxLength) {
            throw .invalidMaxLength(value: maxLength, limit: limits.maxMaxLength)
        }
        var result = text
        // The character count is needed only under a length limit; it is then kept up to date per operation, so a
        // request costs time proportional to its input, not operations × text length.
        var count = rules.maxLength == nil ? 0 : text.count
        for (index, op) in ops.enumerated() {
            switch op {
            case let .insertText(inserted):
                try validate(inserted, opIndex: index, rules: rules, limits: limits)
                if let maxLength = rules.maxLength {
                    insert(inserted, into: &result, count: &count, maxLength: maxLength)
                } else {
                    result.append(contentsOf: inserted)
                }
                let bytes = result.utf8.count
                guard bytes <= limits.maxTextUTF8Bytes else {
                    throw .textTooLong(opIndex: index, utf8Bytes: bytes, limit: limits.maxTextUTF8Bytes)
                }
            case let .deleteBackward(requested):
                guard requested >= 1 else { throw .invalidDeleteCount(opIndex: index, count: requested) }
                count -= deleteBackward(requested, from: &result)
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
            guard rules.charset.allowsTyping(character) else {
                throw .disallowedCharacter(opIndex: opIndex, offset: offset, character: character,
                                           charset: rules.charset)
            }
            offset += 1
        }
        guard offset <= limits.maxInsertCharacters else {
            throw .insertTooLong(opIndex: opIndex, characters: offset, limit: limits.maxInsertCharacters)
        }
    }

    /// Appends the longest prefix of `inserted` that keeps `text` within `maxLength` characters, updating `count`
    /// (the character count of `text`).
    ///
    /// Clusters can merge across the seam (a combining mark, a ZWJ sequence, a virama conjunct, a second regional
    /// indicator), so what counts is the length of the concatenation, not a sum. Two facts of grapheme segmentation
    /// keep that cheap:
    /// - Appending never removes a boundary that already exists (a break depends only on what precedes it and the next
    ///   scalar), so the length grows monotonically with the prefix and a search finds the longest prefix that fits.
    /// - Segmentation after the start of `text`'s last character does not depend on anything before it (that start is
    ///   a boundary, and an even number of regional indicators precedes it within a run), so the concatenation has
    ///   `count − 1` characters before the seam plus those of `last + prefix`.
    ///
    /// The search gallops (prefixes of 1, 2, 4, … characters) and then bisects, so its cost is proportional to what is
    /// kept rather than to what was sent: a full field rejects a long insertion after looking at a character or two.
    static func insert(_ inserted: String, into text: inout String, count: inout Int, maxLength: Int) {
        let stem = text.last.map(String.init) ?? ""
        let stemCount = text.isEmpty ? 0 : count - 1
        // ends[k] is the end of the k-character prefix of `inserted`, discovered lazily.
        var ends = [inserted.startIndex]
        func prefixEnd(_ characters: Int) -> String.Index? {
            while ends.count <= characters {
                guard let last = ends.last, last < inserted.endIndex else { return nil }
                ends.append(inserted.index(after: last))
            }
            return ends[characters]
        }
        func length(_ characters: Int) -> Int {
            stemCount + (stem + inserted[..<ends[characters]]).count
        }

        var fits = 0  // the longest prefix known to fit (the empty one: nothing is inserted)
        var tooLong: Int?  // the shortest prefix known not to fit
        var probe = 1
        while tooLong == nil {
            if prefixEnd(probe) != nil {
                if length(probe) <= maxLength { fits = probe; probe *= 2 } else { tooLong = probe }
            } else {
                // Fewer than `probe` characters: all of them fit, or the bisection below decides.
                let all = ends.count - 1
                if all == fits { break }
                if length(all) <= maxLength { fits = all } else { tooLong = all }
                break
            }
        }
        if var upper = tooLong {
            while upper - fits > 1 {
                let middle = (fits + upper) / 2
                if length(middle) <= maxLength { fits = middle } else { upper = middle }
            }
        }
        guard fits > 0 else { return }
        count = length(fits)
        text.append(contentsOf: inserted[..<ends[fits]])
    }

    /// Removes up to `count` characters from the end of `text`, in time proportional to what is removed, and returns
    /// how many were removed.
    static func deleteBackward(_ count: Int, from text: inout String) -> Int {
        var removed = 0
        while removed < count, !text.isEmpty {
            text.removeLast()
            removed += 1
        }
        return removed
    }
}
