import Foundation
import Testing
@testable import OCR

/// The Korean pen-ink model shipped in `Models/kor-ink.traineddata` (served as `kor` and `ko`),
/// on the committed evaluation ink of Korean fonts it was never trained or tuned on.
@Suite(.serialized) struct KoreanModelTests {
    @Test func theModelIsInstalledAndSplitsInkBySyllableBlocks() {
        #expect(FileManager.default.fileExists(atPath: ShippedModelTests.modelsDirectory + "/kor-ink.traineddata"))
        #expect(TessdataCatalog(extraDirectories: [ShippedModelTests.modelsDirectory]).languages.contains("kor-ink"))
        let policy = RecognitionOptions().syllableBlocks
        #expect(policy.applies(to: "kor-ink") && policy.applies(to: "kor"))
        #expect(!policy.applies(to: "ink") && !policy.applies(to: "eng"))
    }

    /// Words of the evaluation fonts: the shipped model reads the first 60 at a CER of 0.63 (the
    /// issue's target over the whole file, 0.10, is not met yet: see Models/README.md); this
    /// guards against a model that reads nothing, and it must beat Tesseract's stock Korean
    /// model (print) when Debian's tesseract-ocr-kor is installed.
    @Test func readsHangulWords() throws {
        let samples = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(60))
        let truths = samples.map(\.text)
        let korean = ShippedModelTests.characterErrorRate(
            truths: truths, readings: try ShippedModelTests.recognize(samples, language: "kor-ink"))
        #expect(korean <= 0.75, "CER \(korean)")
        if TessdataCatalog(extraDirectories: []).languages.contains("kor") {
            let stock = ShippedModelTests.characterErrorRate(
                truths: truths, readings: try ShippedModelTests.recognize(samples, language: "kor"))
            #expect(korean < stock, "CER \(korean), stock kor \(stock)")
        }
    }
}

/// Tesseract gives every Hangul syllable as a word of its own; the writer's spaces come back
/// from the gaps between them.
@Suite struct HangulWordTests {
    static func word(_ text: String, left: Int, right: Int, line: Int = 0) -> RecognizedWord {
        RecognizedWord(text: text, confidence: 0.9, box: PixelBox(left: left, top: 0, right: right, bottom: 20),
                       line: line, symbols: [])
    }

    @Test func syllablesCloseTogetherAreOneWord() {
        let words = [Self.word("한", left: 0, right: 18), Self.word("글", left: 20, right: 38),
                     Self.word("날", left: 60, right: 78), Self.word("ok", left: 80, right: 98)]
        let joined = TesseractHandle.joiningUnspaced(words)
        #expect(joined.map(\.text) == ["한글", "날", "ok"])
        #expect(joined[0].box == PixelBox(left: 0, top: 0, right: 38, bottom: 20))
        // Syllables on different lines stay apart.
        #expect(TesseractHandle.joiningUnspaced([Self.word("한", left: 0, right: 18),
                                                 Self.word("글", left: 20, right: 38, line: 1)]).count == 2)
    }
}
