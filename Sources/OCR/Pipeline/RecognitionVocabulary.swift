/// The client's vocabulary (`hints.words`), applied to recognised words only where the evidence
/// supports a replacement.
///
/// Matching ignores case. A recognised word (without surrounding punctuation) is replaced by the
/// closest vocabulary word when that word is unambiguous (no other word at the same distance),
/// within `maxRelativeDistance` of its length, and either
/// - spelled by Tesseract's own per-symbol choices: every differing character is one of the
///   alternatives the LSTM ranked at that position (the model saw that letter as possible), or
/// - Tesseract was unsure of the word (confidence below `lowConfidence`).
/// A sure reading that the choices cannot turn into a vocabulary word stays as read: that is
/// how real words that merely resemble a vocabulary word survive.
///
/// Distances and lengths count letters, and a Hangul syllable counts as its jamo (initial,
/// vowel, final): a misread syllable is usually one jamo off, and a two-syllable word, the
/// commonest length of a Korean word, is four to six letters long, not two (counted by
/// syllables, it would be too short for any replacement). Per-symbol choices still match whole
/// syllables, as Tesseract gives them.
struct RecognitionVocabulary {
    struct Entry {
        var word: String
        var folded: [Character]
        /// `folded` with each Hangul syllable spelled as its jamo.
        var spelled: [Character]
    }

    let entries: [Entry]
    let options: VocabularyOptions

    init(_ words: [String], options: VocabularyOptions) {
        var seen = Set<String>()
        var entries: [Entry] = []
        for word in words where !word.isEmpty && seen.insert(word).inserted {
            let folded = Array(word.lowercased())
            entries.append(Entry(word: word, folded: folded, spelled: Self.spelled(folded)))
        }
        self.entries = entries
        self.options = options
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The word to use instead of `word`, or `nil` to keep it.
    func replacement(for word: RecognizedWord) -> String? {
        let characters = Array(word.text)
        // Punctuation around a word (a trailing full stop, quotes) is kept and not matched.
        guard let first = characters.firstIndex(where: Self.isWordCharacter),
              let last = characters.lastIndex(where: Self.isWordCharacter)
        else { return nil }
        let core = Array(characters[first...last])
        let folded = core.map { Character($0.lowercased()) }
        let spelled = Self.spelled(folded)
        guard core.count >= 2, spelled.count >= options.minWordLength else { return nil }
        let choices = Self.choicesPerCharacter(word, range: first...last)

        var best: (entry: Int, distance: Int, choiceDistance: Int)?
        var ambiguous = false
        for (index, entry) in entries.enumerated() {
            let limit = Int((options.maxRelativeDistance * Double(entry.spelled.count)).rounded(.down))
            guard abs(entry.spelled.count - spelled.count) <= limit else { continue }
            let distance = Self.editDistance(spelled, entry.spelled, choices: nil)
            guard distance <= limit else { continue }
            let choiceDistance = Self.editDistance(folded, entry.folded, choices: choices)
            if let current = best {
                if (distance, choiceDistance) < (current.distance, current.choiceDistance) {
                    best = (index, distance, choiceDistance)
                    ambiguous = false
                } else if (distance, choiceDistance) == (current.distance, current.choiceDistance),
                          entries[current.entry].folded != entry.folded {
                    ambiguous = true
                }
            } else {
                best = (index, distance, choiceDistance)
            }
        }
        guard let best, !ambiguous else { return nil }
        let entry = entries[best.entry]
        if String(core) == entry.word { return nil }
        let accepted = best.distance == 0 || best.choiceDistance == 0 || word.confidence < options.lowConfidence
        guard accepted else { return nil }
        return String(characters[..<first]) + entry.word + String(characters[(last + 1)...])
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// `characters` with each precomposed Hangul syllable (U+AC00-U+D7A3) replaced by its
    /// conjoining jamo, one `Character` each: initial, vowel and, when there is one, final.
    static func spelled(_ characters: [Character]) -> [Character] {
        var result: [Character] = []
        result.reserveCapacity(characters.count)
        for character in characters {
            let scalars = character.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first, (0xAC00...0xD7A3).contains(scalar.value) else {
                result.append(character)
                continue
            }
            let index = scalar.value - 0xAC00
            let final = index % 28
            result.append(Character(Unicode.Scalar(0x1100 + index / 588)!))
            result.append(Character(Unicode.Scalar(0x1161 + index % 588 / 28)!))
            if final > 0 { result.append(Character(Unicode.Scalar(0x11A7 + final)!)) }
        }
        return result
    }

    /// For each character of the word within `range`, the lower-cased alternatives Tesseract
    /// ranked for its symbol; empty where symbols do not line up with characters.
    static func choicesPerCharacter(_ word: RecognizedWord, range: ClosedRange<Int>) -> [Set<Character>] {
        var perCharacter: [Set<Character>] = []
        for symbol in word.symbols {
            let alternatives = Set(symbol.choices.compactMap { choice -> Character? in
                choice.text.count == 1 ? choice.text.lowercased().first : nil
            })
            for _ in symbol.text { perCharacter.append(symbol.text.count == 1 ? alternatives : []) }
        }
        guard perCharacter.count == word.text.count else {
            return [Set<Character>](repeating: [], count: range.count)
        }
        return Array(perCharacter[range])
    }

    /// Levenshtein distance from `read` to `target`. With `choices`, substituting a character
    /// by one of that position's alternatives is free.
    static func editDistance(_ read: [Character], _ target: [Character], choices: [Set<Character>]?) -> Int {
        if read.isEmpty { return target.count }
        if target.isEmpty { return read.count }
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...read.count {
            current[0] = i
            for j in 1...target.count {
                let same = read[i - 1] == target[j - 1] || (choices?[i - 1].contains(target[j - 1]) ?? false)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }
}
