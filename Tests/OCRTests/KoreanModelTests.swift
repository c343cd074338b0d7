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

    /// Words of three evaluation fonts (the acceptance target over the whole file is 10 %;
    /// 60 samples leave room for a few unlucky ones), and far better than Tesseract's stock
    /// Korean model, which reads print, when Debian's tesseract-ocr-kor is installed.
    @Test func readsHangulWords() throws {
        let samples = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(60))
        let truths = samples.map(\.text)
        let korean = ShippedModelTests.characterErrorRate(
            truths: truths, readings: try ShippedModelTests.recognize(samples, language: "kor-ink"))
        #expect(korean <= 0.15, "CER \(korean)")
        if TessdataCatalog(extraDirectories: []).languages.contains("kor") {
            let stock = ShippedModelTests.characterErrorRate(
                truths: truths, readings: try ShippedModelTests.recognize(samples, language: "kor"))
            #expect(korean < stock, "CER \(korean), stock kor \(stock)")
        }
    }
}
