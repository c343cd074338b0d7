import Geometry
import Testing
@testable import OCR

/// A symbol as Tesseract would report it, with ranked alternatives.
private func symbol(_ text: String, confidence: Double = 0.9, choices: [String] = []) -> RecognizedSymbol {
    RecognizedSymbol(
        text: text, confidence: confidence, box: Rect(left: 0, top: 0, right: 10, bottom: 20),
        choices: [SymbolChoice(text: text, confidence: confidence)]
            + choices.map { SymbolChoice(text: $0, confidence: 0.01) })
}

private func page(_ words: [[RecognizedSymbol]]) -> TesseractPage {
    let recognized = words.enumerated().map { index, symbols in
        RecognizedWord(text: symbols.map(\.text).joined(), confidence: 0.9,
                       box: Rect(left: Double(index * 50), top: 0, right: Double(index * 50 + 40), bottom: 20),
                       line: 0, symbols: symbols)
    }
    return TesseractPage(text: TesseractPage.joinedText(of: recognized), meanConfidence: 0.9,
                         words: recognized, elapsed: .zero)
}

@Suite struct CharacterSetMembership {
    @Test func digitsAllowOnlyAsciiDigits() {
        for character in "0123456789" { #expect(CharacterHint.digits.allows(character)) }
        for character in "Oo.-,$ ٣三" { #expect(!CharacterHint.digits.allows(character)) }
    }

    @Test func numberAllowsWhatHandwrittenNumbersContain() {
        // Prices, decimals, thousands, negatives, dates, times, percentages, phone numbers,
        // small sums and counts.
        for text in ["$24.59", "12,50€", "90,187,236.54", "-9", "+1", "(500)", "2023-03-16",
                     "16.3.2023", "11/11", "3:30", "15.08%", "(212)", "753-8675", "£3", "¥1200", "50¢",
                     "3+7=10", "16*4", "3×2", "#5", "3@1.50"] {
            #expect(CharacterHint.number.allows(text), "\(text)")
        }
        for text in ["abc", "7 am", "x2", "5kg"] {
            #expect(!CharacterHint.number.allows(text), "\(text)")
        }
    }

    @Test func textAllowsEverything() {
        #expect(CharacterHint.text.allows("Grüße, 5 €!"))
    }

    @Test func emptyTextIsNotAllowed() {
        #expect(!CharacterHint.digits.allows(""))
    }
}

@Suite struct LookAlikeMapping {
    @Test(arguments: [
        ("O", "0"), ("o", "0"), ("D", "0"), ("l", "1"), ("I", "1"), ("|", "1"), ("i", "1"), ("!", "1"),
        ("Z", "2"), ("z", "2"), ("S", "5"), ("s", "5"), ("B", "8"), ("q", "9"), ("g", "9"),
        ("G", "6"), ("b", "6"), ("T", "7"), ("A", "4"), ("&", "8"),
    ] as [(Character, Character)])
    func lettersMapToTheDigitTheyResemble(read: Character, meant: Character) {
        #expect(LookAlikes.replacement(for: read, under: .digits) == meant)
        #expect(LookAlikes.replacement(for: read, under: .number) == meant)
    }

    @Test func allowedCharactersMapToThemselves() {
        #expect(LookAlikes.replacement(for: "7", under: .digits) == "7")
        #expect(LookAlikes.replacement(for: "/", under: .number) == "/")
        #expect(LookAlikes.replacement(for: "$", under: .number) == "$")
    }

    @Test func separatorsDependOnTheHint() {
        // A slash or a dollar is a separator in a number but a misread 1 or 5 among digits.
        #expect(LookAlikes.replacement(for: "/", under: .digits) == "1")
        #expect(LookAlikes.replacement(for: "$", under: .digits) == "5")
        // Dash variants become a minus in a number and have no digit look-alike.
        for dash in "—–−~_" {
            #expect(LookAlikes.replacement(for: dash, under: .number) == "-")
            #expect(LookAlikes.replacement(for: dash, under: .digits) == nil)
        }
        #expect(LookAlikes.replacement(for: ";", under: .number) == ":")
    }

    @Test func lettersThatResembleNoDigitAreNotMapped() {
        for letter in "ekwxyvmnpr" {
            #expect(LookAlikes.replacement(for: letter, under: .digits) == nil, "\(letter)")
        }
    }

    @Test func everyTargetIsAllowedByNumber() {
        for target in LookAlikes.table.values {
            #expect(CharacterHint.number.allows(target), "\(target)")
        }
    }

    @Test func separatorLikeMarks() {
        for text in [":", ".", "-", "~", "—", ";", "$", "/"] {
            #expect(LookAlikes.isSeparatorLike(text), "\(text)")
        }
        for text in ["O", "S", "§", "©", "?", "g", "#", "=", "*"] {
            #expect(!LookAlikes.isSeparatorLike(text), "\(text)")
        }
    }
}

@Suite struct SymbolResolutionRules {
    @Test func allowedBestReadingIsKept() {
        #expect(CharacterHint.digits.resolve(symbol("7", choices: ["T"])) == .kept)
    }

    @Test func letterTakesTheBestRankedDigitAlternative() {
        // The model saw the shape: its ranked digit beats the static table (g → 9).
        let resolution = CharacterHint.digits.resolve(symbol("g", choices: ["q", "8", "9"]))
        #expect(resolution == .alternative("8", confidence: 0.01))
    }

    @Test func letterWithoutDigitAlternativeUsesTheTable() {
        #expect(CharacterHint.digits.resolve(symbol("q", choices: ["a", "¢"])) == .lookAlike("9"))
    }

    @Test func letterPrefersTableOverPunctuationAlternative() {
        // In a number, `¢` is allowed, but a `q` is far likelier a 9 than a cent sign.
        #expect(CharacterHint.number.resolve(symbol("q", choices: ["¢"])) == .lookAlike("9"))
    }

    @Test func letterFallsBackToAnAllowedPunctuationAlternative() {
        #expect(CharacterHint.number.resolve(symbol("x", choices: ["+"])) == .alternative("+", confidence: 0.01))
    }

    @Test func separatorIsDroppedFromDigitsInsteadOfInventingADigit() {
        // The LSTM lists near-zero digits for a clear colon; they must not be used.
        #expect(CharacterHint.digits.resolve(symbol(":", choices: ["2", "3"])) == .dropped)
    }

    @Test func arithmeticSignIsKeptInANumberButADigitAmongDigits() {
        #expect(CharacterHint.number.resolve(symbol("=", choices: ["2"])) == .kept)
        #expect(CharacterHint.number.resolve(symbol("#", choices: ["4"])) == .kept)
        // Among digits a `#` is a misread digit: the model's ranked digit wins, as for a letter.
        #expect(CharacterHint.digits.resolve(symbol("#", choices: ["4"])) == .alternative("4", confidence: 0.01))
    }

    @Test func separatorVariantBecomesTheAllowedSeparator() {
        #expect(CharacterHint.number.resolve(symbol("~", choices: ["1"])) == .lookAlike("-"))
    }

    @Test func unmappableLetterIsDropped() {
        #expect(CharacterHint.digits.resolve(symbol("k", choices: ["K", "x"])) == .dropped)
    }
}

@Suite struct ApplyingHints {
    @Test func textHintChangesNothing() {
        let original = page([[symbol("S"), symbol("O")]])
        let hinted = CharacterHint.text.apply(to: original)
        #expect(hinted.page == original)
        #expect(!hinted.changed)
    }

    @Test func wordsAndTextAreRebuilt() {
        let original = page([[symbol("S", choices: ["5"]), symbol("O"), symbol(":")], [symbol("1"), symbol("2")]])
        let hinted = CharacterHint.digits.apply(to: original)
        #expect(hinted.page.text == "50 12")
        #expect(hinted.page.words.map(\.text) == ["50", "12"])
        #expect(hinted.alternatives == 1)
        #expect(hinted.lookAlikes == 1)
        #expect(hinted.dropped == 1)
    }

    @Test func substitutionsLowerConfidenceAndUntouchedWordsKeepIt() {
        let original = page([[symbol("S", choices: ["5"])], [symbol("O")], [symbol("7")]])
        let hinted = CharacterHint.digits.apply(to: original)
        let confidences = hinted.page.words.map(\.confidence)
        // A ranked alternative is trusted more than a table look-alike; neither as much as a kept reading.
        #expect(confidences[0] < 0.9 && confidences[1] < confidences[0] && confidences[2] == 0.9)
        #expect(hinted.page.meanConfidence < original.meanConfidence)
    }

    @Test func wordWithNothingAllowedDisappears() {
        let original = page([[symbol("k"), symbol("w")], [symbol("4"), symbol("2")]])
        let hinted = CharacterHint.digits.apply(to: original)
        #expect(hinted.page.text == "42")
        #expect(hinted.page.words.count == 1)
    }

    @Test func wordsWithoutSymbolsAreResolvedCharacterByCharacter() {
        let word = RecognizedWord(text: "lO", confidence: 0.8, box: Rect(left: 0, top: 0, right: 1, bottom: 1),
                                  line: 0, symbols: [])
        let original = TesseractPage(text: "lO", meanConfidence: 0.8, words: [word], elapsed: .zero)
        #expect(CharacterHint.digits.apply(to: original).page.text == "10")
    }

    @Test func linesAreKeptApart() {
        var original = page([[symbol("1")], [symbol("~")]])
        original.words[1].line = 1
        let hinted = CharacterHint.number.apply(to: original)
        #expect(hinted.page.text == "1\n-")
    }
}
