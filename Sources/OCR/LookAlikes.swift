/// Characters that handwritten digits and number punctuation are commonly read as.
///
/// The soft whitelist consults the table when a symbol's best reading is not allowed (see
/// `CharacterHint.resolve(_:)` for the order). At that point the symbol is either mapped or
/// dropped, and dropping a digit is certainly wrong, so the table leans towards mapping every
/// shape that is a plausible rendering of the digit:
///
/// | read as | meant | why |
/// | --- | --- | --- |
/// | `O o D Q Ø ø` | `0` | a closed loop; `D` when the left side is straight; `Ø` is a slashed zero |
/// | `l I i j ! \| [ ] \ /` | `1` | a vertical or slanted bar, with or without serif or dot (`/` stays in `.number`, where it is allowed) |
/// | `Z z` | `2` | the same zig-zag |
/// | `A` | `4` | a closed-top 4 |
/// | `S s $ §` | `5` | the same S curve (`$` stays in `.number`) |
/// | `G b` | `6` | a loop at the bottom with a rising stroke |
/// | `T` | `7` | a 7 with a short top bar or a crossbar |
/// | `B & ß` | `8` | two stacked loops |
/// | `q g` | `9` | a loop at the top with a descender |
/// | `— – − ‐ _ ~ ¬` | `-` | a horizontal stroke whose height or wobble was misjudged |
/// | `· •` | `.` | a dot at the wrong height |
/// | `;` | `:` | a colon whose lower dot has a tail |
/// | `‚` | `,` | the low quote is a comma |
///
/// Letters that look like no digit (`e`, `k`, `w`, ...) are not mapped: forcing them would
/// invent digits out of words.
public enum LookAlikes {
    static let table: [Character: Character] = {
        var table: [Character: Character] = [:]
        func map(_ characters: String, to target: Character) {
            for character in characters { table[character] = target }
        }
        map("OoDQØø", to: "0")
        map("lIij!|[]\\/", to: "1")
        map("Zz", to: "2")
        map("A", to: "4")
        map("Ss$§", to: "5")
        map("Gb", to: "6")
        map("T", to: "7")
        map("B&ß", to: "8")
        map("qg", to: "9")
        map("—–−‐_~¬", to: "-")
        map("·•", to: ".")
        map(";", to: ":")
        map("‚", to: ",")
        return table
    }()

    /// Whether every character of `text` is number punctuation or a variant of it: a mark the
    /// writer meant as a separator rather than a misread digit.
    public static func isSeparatorLike(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { character in
            CharacterHint.numberSeparators.contains(character)
                || table[character].map { CharacterHint.numberSeparators.contains($0) } == true
        }
    }

    /// The character `character` most plausibly stands for under `hint`, or `nil` when it has
    /// no allowed look-alike. Allowed characters map to themselves.
    public static func replacement(for character: Character, under hint: CharacterHint) -> Character? {
        if hint.allows(character) { return character }
        guard let target = table[character], hint.allows(target) else { return nil }
        return target
    }
}
