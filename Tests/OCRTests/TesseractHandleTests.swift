import Foundation
import Ink
import Geometry
import Testing
@testable import OCR

/// Real Tesseract with Debian's `eng` model on images drawn from the synthetic print corpus.
@Suite struct TesseractHandleTests {
    /// Common dictionary words in a clean single-stroke print font, drawn 40 px high: any
    /// working LSTM setup must read them exactly.
    @Test(arguments: ["pedicure", "artless", "update resume"])
    func clearlyPrintedWordsAreRecognisedExactly(text: String) throws {
        let handle = try Fixtures.engHandle()
        let image = try Fixtures.image(text)
        let page = try handle.recognize(image: image, pageSegmentationMode: .singleLine, deadline: 5_000)
        #expect(page.text == text)
        #expect(page.words.map(\.text) == text.split(separator: " ").map(String.init))
        #expect(page.meanConfidence > 0.5 && page.meanConfidence <= 1)
    }

    @Test func wordsAndSymbolsCarryBoxesInsideTheImageAndRankedChoices() throws {
        let handle = try Fixtures.engHandle()
        let image = try Fixtures.image("update resume")
        let page = try handle.recognize(image: image, deadline: 5_000)
        let words = page.words
        try #require(words.count == 2)
        // Words are left to right and do not overlap; the drawing has 12 px white padding.
        #expect(words[0].box.maxX <= words[1].box.minX)
        for word in words {
            #expect(word.box.minX >= 0 && word.box.minY >= 0)
            #expect(word.box.maxX <= Double(image.width) && word.box.maxY <= Double(image.height))
            #expect(word.box.width > 0 && word.box.height > 0)
            #expect(word.symbols.map(\.text).joined() == word.text)
            for symbol in word.symbols {
                #expect(symbol.box.minX >= word.box.minX && symbol.box.maxX <= word.box.maxX)
                let best = try #require(symbol.choices.first)
                #expect(best.text == symbol.text)
                #expect(symbol.choices.allSatisfy { (0...1).contains($0.confidence) })
                #expect(zip(symbol.choices, symbol.choices.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
            }
        }
        // Alternatives are on by default: at least some symbols have more than one.
        #expect(words.flatMap(\.symbols).contains { $0.choices.count > 1 })
    }

    /// Without the blank check Tesseract's line mode reads a white image as "Oo".
    @Test(arguments: [255, 200] as [UInt8])
    func blankImageGivesEmptyPage(paper: UInt8) throws {
        let handle = try Fixtures.engHandle()
        let page = try handle.recognize(image: GrayImage(width: 200, height: 60, fill: paper), deadline: 5_000)
        #expect(page.text.isEmpty)
        #expect(page.words.isEmpty)
        #expect(page.meanConfidence == 0)
    }

    @Test func emptyAndOversizedImagesAreRefused() throws {
        let handle = try Fixtures.engHandle()
        #expect(throws: OCRError.self) { try handle.recognize(image: GrayImage(width: 0, height: 10), deadline: 100) }
        let wide = GrayImage(width: TesseractHandle.maximumImageSide + 1, height: 1)
        #expect(throws: OCRError.invalidImage(width: wide.width, height: 1,
                                              reason: "a side exceeds \(TesseractHandle.maximumImageSide) pixels")) {
            try handle.recognize(image: wide, deadline: 100)
        }
    }

    @Test func deadlineAbandonsALargePageAndTheHandleStaysUsable() throws {
        let handle = try Fixtures.engHandle()
        let lines = try Corpus.samples("print.jsonl").filter { !$0.text.contains("\n") }.prefix(12)
        let page = Fixtures.stacked(lines.map { TestRasterizer.draw($0.strokes) })
        #expect(page.width * page.height > 100_000)
        #expect(throws: OCRError.deadlineExceeded(milliseconds: 1)) {
            try handle.recognize(image: page, pageSegmentationMode: .singleBlock, deadline: 1)
        }
        // The same page completes with time to spare, so the failure above was the deadline.
        let full = try handle.recognize(image: page, pageSegmentationMode: .singleBlock, deadline: 60_000)
        #expect(Set(full.words.map(\.line)).count >= 10)
        // And the handle still reads a word exactly afterwards.
        #expect(try handle.recognize(image: try Fixtures.image("artless"), deadline: 5_000).text == "artless")
    }

    @Test func missingEnglishModelNamesTheDebianPackage() throws {
        let empty = try Fixtures.temporaryDirectory()
        do {
            _ = try TesseractHandle(tessdataPath: empty.path, language: "eng")
            Issue.record("initialisation without a model file succeeded")
        } catch let error {
            guard case let .initializationFailed(language, path, code, hint) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(language == "eng" && path == empty.path && code != 0)
            #expect(hint?.contains("tesseract-ocr-eng") == true)
            #expect(error.description.contains(empty.path))
        }
    }

    @Test func corruptModelIsATypedErrorNotACrash() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data(repeating: 7, count: 4096).write(to: directory.appendingPathComponent("junk.traineddata"))
        #expect {
            try TesseractHandle(tessdataPath: directory.path, language: "junk")
        } throws: { error in
            guard case let .initializationFailed(_, _, _, hint) = error as? OCRError else { return false }
            return hint?.contains("exists but is not a loadable") == true
        }
    }

    @Test func languageNamesThatCouldBePathsAreRefused() {
        #expect(throws: OCRError.invalidLanguageName("../eng")) {
            try TesseractHandle(tessdataPath: Fixtures.tessdata, language: "../eng")
        }
    }

    @Test func initVariablesTakeEffect() throws {
        let handle = try TesseractHandle(
            tessdataPath: Fixtures.tessdata, language: "eng",
            settings: TesseractSettings(useDictionary: false, retryInverted: false, alternativesPerSymbol: 3,
                                        extraVariables: ["textord_min_xheight": "7"]))
        #expect(handle.variable("lstm_use_matrix") == "0")
        #expect(handle.variable("tessedit_do_invert") == "0")
        #expect(handle.variable("lstm_choice_iterations") == "3")
        #expect(handle.variable("textord_min_xheight") == "7")
        #expect(handle.variable("preserve_interword_spaces") == "1")
    }

    @Test func alternativesAreCollectedOnlyWhenAsked() throws {
        let handle = try Fixtures.engHandle()
        let image = try Fixtures.image("update resume")
        let without = try handle.recognize(image: image, deadline: 5_000, alternatives: false)
        #expect(handle.variable("lstm_choice_mode") == "0")
        #expect(without.words.flatMap(\.symbols).allSatisfy { $0.choices.count <= 1 })
        let with = try handle.recognize(image: image, deadline: 5_000, alternatives: true)
        #expect(handle.variable("lstm_choice_mode") == "2")
        #expect(with.words.flatMap(\.symbols).contains { $0.choices.count > 1 })
        // Alternatives do not change the reading itself.
        #expect(with.text == without.text)
    }
}
