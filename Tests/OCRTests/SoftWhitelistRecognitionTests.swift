import Testing
@testable import OCR

/// The soft whitelist on real Tesseract output.
@Suite struct SoftWhitelistRecognitionTests {
    /// Handwriting-font single digits traced into pen strokes (hand-digits fixtures), where Tesseract's unconstrained best reading is
    /// often a letter (`O`, `G`, `Z`, `g`, `q`): the digits hint must recover more of them than
    /// unconstrained recognition, and never leak a non-digit.
    @Test func digitsHintRecoversHandwrittenDigits() throws {
        let handle = try Fixtures.engHandle()
        let samples = try Corpus.samples("hand-digits.jsonl")
        var plainCorrect = 0
        var hintedCorrect = 0
        for sample in samples {
            let page = try handle.recognize(image: TestRasterizer.draw(sample.strokes),
                                            pageSegmentationMode: .singleLine, deadline: 5_000)
            let hinted = CharacterHint.digits.apply(to: page).page.text
            #expect(hinted.allSatisfy { $0.isASCII && $0.isNumber }, "\(sample.id): \(hinted)")
            if page.text == sample.text { plainCorrect += 1 }
            if hinted == sample.text { hintedCorrect += 1 }
        }
        #expect(hintedCorrect > plainCorrect, "hinted \(hintedCorrect) vs plain \(plainCorrect) of \(samples.count)")
    }

    /// Printed numbers (prices, dates, times, phone numbers): under `.number` more come back
    /// exactly than unconstrained, and the output stays within the number character set.
    @Test func numberHintKeepsSeparatorsAndFixesVariants() throws {
        let handle = try Fixtures.engHandle()
        let numbers = try Corpus.samples("print.jsonl").filter {
            !$0.text.contains("\n") && CharacterHint.number.allows($0.text)
        }
        try #require(numbers.count >= 10)
        var plainCorrect = 0
        var hintedCorrect = 0
        for sample in numbers {
            let page = try handle.recognize(image: TestRasterizer.draw(sample.strokes), deadline: 5_000)
            let hinted = CharacterHint.number.apply(to: page).page.text
            #expect(hinted.allSatisfy { $0 == " " || CharacterHint.number.allows($0) }, "\(sample.id): \(hinted)")
            if page.text == sample.text { plainCorrect += 1 }
            if hinted == sample.text { hintedCorrect += 1 }
        }
        #expect(hintedCorrect > plainCorrect, "hinted \(hintedCorrect) vs plain \(plainCorrect) of \(numbers.count)")
    }

    /// A date written into a digits field: the dashes are deliberate separators, so they are
    /// dropped rather than turned into digits, and every digit survives.
    @Test func separatorsAreDroppedFromDigits() throws {
        let handle = try Fixtures.engHandle()
        let page = try handle.recognize(image: try Fixtures.image("2023-12-05"), deadline: 5_000)
        try #require(page.text == "2023-12-05")
        let hinted = CharacterHint.digits.apply(to: page)
        #expect(hinted.page.text == "20231205")
        #expect(hinted.dropped == 2)
    }
}
