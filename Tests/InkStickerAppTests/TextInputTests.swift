import Testing
@testable import InkStickerApp

@Suite("TextInput")
struct TextInputTests {
    static let free = TextInputRules()

    static func apply(_ ops: [TextInputOp], to text: String, rules: TextInputRules = free) throws -> String {
        try TextInput.apply(ops, to: text, rules: rules)
    }

    /// The error a request throws, or `nil` when it succeeds.
    static func error(_ ops: [TextInputOp], to text: String = "", rules: TextInputRules = free,
                      limits: TextInputLimits = TextInputLimits()) -> TextInputError? {
        do {
            _ = try TextInput.apply(ops, to: text, rules: rules, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Deleting whole characters

    @Test("one backspace removes one Hangul syllable")
    func hangul() throws {
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "한글") == "한")
        // The same syllables as conjoining jamo (NFD: ᄒ ᅡ ᆫ ᄀ ᅳ ᆯ) are still two characters.
        let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"
        #expect(decomposed.count == 2)
        #expect(try Self.apply([.deleteBackward(count: 1)], to: decomposed) == "\u{1112}\u{1161}\u{11AB}")
    }

    @Test("an emoji with a skin-tone modifier is one character")
    func skinTone() throws {
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "ok👍🏽") == "ok")
        #expect(try Self.apply([.insertText("👍🏽")], to: "", rules: TextInputRules(maxLength: 1)) == "👍🏽")
    }

    @Test("a ZWJ family is one character")
    func zwjFamily() throws {
        let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
        #expect(family.unicodeScalars.count == 7)
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "hi" + family) == "hi")
        #expect(try Self.apply([.insertText(family + "x")], to: "", rules: TextInputRules(maxLength: 1)) == family)
    }

    @Test("flags are one character each, also when deleting from a run of them")
    func flags() throws {
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "🇰🇷🇫🇷🇺🇸") == "🇰🇷🇫🇷")
        #expect(try Self.apply([.deleteBackward(count: 2)], to: "🇰🇷🇫🇷🇺🇸") == "🇰🇷")
        // A subdivision flag is a tag sequence of seven scalars, still one character.
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "a🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}")
            == "a")
    }

    @Test("a letter with a combining mark is one character")
    func combiningMarks() throws {
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "cafe\u{301}") == "caf")
        // Typing the mark after the letter joins it, so it fits in a full field.
        #expect(try Self.apply([.insertText("\u{301}")], to: "cafe", rules: TextInputRules(maxLength: 4))
            == "cafe\u{301}")
    }

    @Test("deleting past the start empties the text and does no more")
    func deleteClamps() throws {
        #expect(try Self.apply([.deleteBackward(count: 5)], to: "abc") == "")
        #expect(try Self.apply([.deleteBackward(count: Int.max)], to: "abc") == "")
        #expect(try Self.apply([.deleteBackward(count: 1)], to: "") == "")
        #expect(try Self.apply([.deleteBackward(count: 9), .insertText("x")], to: "ab") == "x")
    }

    // MARK: Length limit

    @Test("an insertion that would exceed maxLength keeps the characters that fit")
    func maxLengthTruncates() throws {
        let passcode = TextInputRules(maxLength: 4, charset: .digits)
        #expect(try Self.apply([.insertText("123456")], to: "", rules: passcode) == "1234")
        #expect(try Self.apply([.insertText("56")], to: "123", rules: passcode) == "1235")
        #expect(try Self.apply([.insertText("9")], to: "1234", rules: passcode) == "1234")
        // Room made by deleting is filled by later insertions.
        #expect(try Self.apply([.insertText("12345"), .deleteBackward(count: 2), .insertText("789")],
                               to: "", rules: passcode) == "1278")
        // Counted in characters, not scalars or bytes.
        #expect(try Self.apply([.insertText("한국어입니다")], to: "", rules: TextInputRules(maxLength: 3)) == "한국어")
        #expect(try Self.apply([.insertText("🇰🇷🇫🇷🇺🇸")], to: "", rules: TextInputRules(maxLength: 2)) == "🇰🇷🇫🇷")
        #expect(try Self.apply([.insertText("abc")], to: "", rules: TextInputRules(maxLength: 0)) == "")
    }

    @Test("a regional indicator that pairs across the seam is counted in the result")
    func seamPairing() throws {
        // "🇰" alone is one character; "🇷🇫" typed after it re-pairs into 🇰🇷 + a lone 🇫: two characters.
        let result = try Self.apply([.insertText("\u{1F1F7}\u{1F1EB}")], to: "\u{1F1F0}",
                                    rules: TextInputRules(maxLength: 1))
        #expect(result == "\u{1F1F0}")
        let roomy = try Self.apply([.insertText("\u{1F1F7}\u{1F1EB}")], to: "\u{1F1F0}",
                                   rules: TextInputRules(maxLength: 2))
        #expect(roomy == "🇰🇷\u{1F1EB}")
        #expect(roomy.count == 2)
    }

    @Test("a text already over maxLength takes no insertion but can be shortened")
    func overLongStoredText() throws {
        let rules = TextInputRules(maxLength: 2)
        #expect(try Self.apply([.insertText("x")], to: "abcd", rules: rules) == "abcd")
        #expect(try Self.apply([.deleteBackward(count: 1), .insertText("x")], to: "abcd", rules: rules) == "abc")
        #expect(try Self.apply([.deleteBackward(count: 3), .insertText("xyz")], to: "abcd", rules: rules) == "ax")
    }

    @Test("truncation keeps the longest fitting prefix for every split of a mixed string")
    func truncationProperty() throws {
        // Pieces chosen to merge or re-pair across the seam: lone regional indicators, a lone ZWJ, a lone combining
        // mark, a lone skin-tone modifier, Hangul jamo, a Devanagari virama that joins the next consonant.
        let pieces = ["a", "한", "👍🏽", "🇰🇷", "e\u{301}", "👨\u{200D}👩\u{200D}👧", "1", " ",
                      "\u{1F1F0}", "\u{1F1F7}", "\u{200D}", "👩", "\u{301}", "\u{1F3FD}", "\u{1100}", "\u{1161}",
                      "\u{11AB}", "क\u{94D}", "ष", "\n"]
        // A stored text may end in a CR, which an inserted LF joins (CR LF is one character); typing CR is refused.
        let textPieces = pieces + ["\r"]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<3_000 {
            let text = (0..<next(6)).map { _ in textPieces[next(textPieces.count)] }.joined()
            let inserted = (0..<next(8)).map { _ in pieces[next(pieces.count)] }.joined()
            let maxLength = next(12)
            let result = try Self.apply([.insertText(inserted)], to: text, rules: TextInputRules(maxLength: maxLength))
            let kept = Array(inserted)
            // The result is the text plus some prefix of the inserted characters…
            let prefixes = (0...kept.count).map { text + String(kept[..<$0]) }
            guard let taken = prefixes.firstIndex(of: result) else {
                Issue.record("\(result.debugDescription) is not text + a prefix of \(inserted.debugDescription)")
                continue
            }
            // …within the limit unless nothing was inserted, and one more character would not have fitted.
            #expect(result.count <= maxLength || taken == 0)
            // The running count the editor keeps matches a full recount, also after deleting again.
            let edited = try Self.apply([.insertText(inserted), .deleteBackward(count: 1), .insertText(inserted)],
                                        to: text, rules: TextInputRules(maxLength: maxLength))
            #expect(edited.count <= max(maxLength, text.count), "\(text.debugDescription) + \(inserted.debugDescription)")
            if taken < kept.count {
                #expect(prefixes[taken + 1].count > maxLength, "\(text.debugDescription) + \(inserted.debugDescription)")
            }
        }
    }

    // MARK: Charsets and atomicity

    @Test("a digits field refuses a non-digit, naming the op and the character, and applies nothing")
    func digitsAtomic() throws {
        let rules = TextInputRules(charset: .digits)
        let ops: [TextInputOp] = [.insertText("12"), .deleteBackward(count: 1), .insertText("3"), .insertText("4x5")]
        let error = Self.error(ops, to: "0", rules: rules)
        #expect(error == .disallowedCharacter(opIndex: 3, offset: 1, character: "x", charset: .digits))
        #expect(error?.pointer() == "/ops/3/insertText")
        #expect(error?.description.contains("U+0078") == true)
        // Without the bad op, the same request applies in full.
        #expect(try Self.apply(Array(ops.dropLast()), to: "0", rules: rules) == "013")
    }

    @Test("digits means ASCII 0-9 only")
    func digitsCharset() {
        let rules = TextInputRules(charset: .digits)
        #expect(Self.error([.insertText("0123456789")], rules: rules) == nil)
        for refused in ["٣", "３", "1\u{301}", " ", "-", "½", "a"] {
            #expect(Self.error([.insertText(refused)], rules: rules) != nil, "\(refused.debugDescription)")
        }
    }

    @Test("a number field allows digits, . , - + / : and spaces")
    func numberCharset() throws {
        let rules = TextInputRules(charset: .number)
        #expect(try Self.apply([.insertText("+82 10-1234,5.6 1/2 12:30")], to: "", rules: rules)
            == "+82 10-1234,5.6 1/2 12:30")
        for refused in ["e", "\u{A0}", "\t", "−", "%"] {
            let error = Self.error([.insertText("1" + refused)], rules: rules)
            #expect(error == .disallowedCharacter(opIndex: 0, offset: 1, character: Character(refused),
                                                  charset: .number), "\(refused.debugDescription)")
        }
    }

    @Test("a text field refuses control characters but keeps line breaks")
    func textCharset() throws {
        #expect(try Self.apply([.insertText("two\nlines")], to: "") == "two\nlines")
        #expect(Self.error([.insertText("a\u{0}b")]) == .disallowedCharacter(
            opIndex: 0, offset: 1, character: "\u{0}", charset: .text))
        #expect(Self.error([.insertText("\u{1B}[2J")]) != nil)
    }

    @Test("a multi-op sequence applies in order")
    func multiOp() throws {
        let ops: [TextInputOp] = [
            .insertText("Helo"), .deleteBackward(count: 1), .insertText("lo wrld"),
            .deleteBackward(count: 4), .insertText("world 👋🏽"), .deleteBackward(count: 1), .insertText("!"),
        ]
        #expect(try Self.apply(ops, to: "") == "Hello world !")
        #expect(try Self.apply([], to: "unchanged") == "unchanged")
        #expect(try Self.apply([.insertText("")], to: "same") == "same")
    }

    // MARK: Limits

    @Test("zero and negative delete counts are errors pointing at the op")
    func badCounts() {
        for count in [0, -1, Int.min] {
            let error = Self.error([.insertText("abc"), .deleteBackward(count: count)])
            #expect(error == .invalidDeleteCount(opIndex: 1, count: count))
            #expect(error?.pointer() == "/ops/1/deleteBackward")
        }
    }

    @Test("request limits are typed errors")
    func limits() {
        let limits = TextInputLimits(maxOps: 3, maxInsertCharacters: 5, maxInsertUTF8Bytes: 32,
                                     maxTotalInsertUTF8Bytes: 40, maxScalarsPerCharacter: 8, maxTextUTF8Bytes: 12,
                                     maxMaxLength: 100)
        func error(_ ops: [TextInputOp], rules: TextInputRules = Self.free) -> TextInputError? {
            Self.error(ops, rules: rules, limits: limits)
        }
        let four = [TextInputOp](repeating: .deleteBackward(count: 1), count: 4)
        #expect(error(four) == .tooManyOps(count: 4, limit: 3))
        #expect(error(four)?.pointer() == "/ops")
        #expect(error([.insertText("abcdef")]) == .insertTooLong(opIndex: 0, characters: 6, limit: 5))
        #expect(error([.insertText(String(repeating: "한", count: 11))])
            == .insertTooLarge(opIndex: 0, utf8Bytes: 33, limit: 32))
        let zalgo = "a" + String(repeating: "\u{301}", count: 8)
        #expect(error([.insertText("x" + zalgo)])
            == .characterTooComplex(opIndex: 0, offset: 1, scalars: 9, limit: 8))
        #expect(error([.insertText("abcde"), .insertText("abcde"), .insertText("abc")])
            == .textTooLong(opIndex: 2, utf8Bytes: 13, limit: 12))
        let thirtyBytes = String(repeating: "é", count: 15)
        #expect(error([.insertText(thirtyBytes), .deleteBackward(count: 30), .insertText(thirtyBytes)])
            == .requestTooLarge(utf8Bytes: 60, limit: 40))
        #expect(error([], rules: TextInputRules(maxLength: 101)) == .invalidMaxLength(value: 101, limit: 100))
        #expect(error([], rules: TextInputRules(maxLength: -1)) == .invalidMaxLength(value: -1, limit: 100))
        #expect(TextInputError.invalidMaxLength(value: -1, limit: 100).pointer() == nil)
    }

    @Test("the default limits allow a thousand ops and a thousand characters per insert")
    func defaultLimits() throws {
        let ops = [TextInputOp](repeating: .insertText("a"), count: 1_000)
        #expect(try Self.apply(ops, to: "").count == 1_000)
        #expect(Self.error(ops + [.insertText("a")]) == .tooManyOps(count: 1_001, limit: 1_000))
        let thousand = String(repeating: "x", count: 1_000)
        #expect(try Self.apply([.insertText(thousand)], to: "") == thousand)
    }
}
