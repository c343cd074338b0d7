import Foundation
import Geometry
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

    /// Korean lines are drawn as high as the model's network reads them (by default), other
    /// lines as before: the images handed to Tesseract are as high as its input, not scaled up.
    @Test func koreanLinesAreDrawnAsHighAsTheNetworkReads() throws {
        let catalog = TessdataCatalog(extraDirectories: [ShippedModelTests.modelsDirectory])
        let height = try #require(catalog.networkInputHeights["kor-ink"])
        let sample = try #require(try Corpus.samples("hangul-words.jsonl", folder: "hangul").first)
        let strokes = RecognitionImagingTests.strokes(sample)
        func heights(_ language: String, _ scale: BlockInkScale) throws -> [Int] {
            let pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, queueDepth: 1,
                                                                         defaultLanguage: "ink", catalog: catalog))
            defer { pool.shutdown() }
            return InkRecognizer(pool: pool, options: RecognitionOptions(blockInkScale: scale))
                .lineImages(for: strokes, language: language).map(\.height)
        }
        // Other lines' images: the default rendering's height (38 pixels).
        let lineHeight = LineImager().renderOptions(for: RecognitionOptions().render).imageHeight
        var cases = [("ink", BlockInkScale.model, lineHeight), ("ink", .fixed(1.5), lineHeight),
                     ("kor-ink", .fixed(1), lineHeight), ("kor-ink", .model, max(lineHeight, height))]
        if let stock = catalog.networkInputHeights["kor"] {  // Debian's tesseract-ocr-kor: 48
            cases.append(("kor", .model, max(lineHeight, stock)))
        }
        for (language, scale, expected) in cases {
            let drawn = try heights(language, scale)
            #expect(!drawn.isEmpty && drawn.allSatisfy { $0 == expected }, "\(language) \(scale): \(drawn)")
        }
    }

    /// Words of the evaluation fonts: the shipped model reads the whole file at a CER of 0.375
    /// through the API (the target, 0.10, is not met yet: see Models/README.md); this
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

    /// A board's vocabulary (`hints.words`) of the same 60 words: readings get closer, words
    /// read right stay right, and words with more than a third of their syllables misread,
    /// too far to be replaced when matched syllable by syllable, are put right by jamo.
    @Test func aVocabularyPutsMisreadHangulWordsRight() throws {
        let samples = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(60))
        let truths = samples.map(\.text)
        let plain = try ShippedModelTests.recognize(samples, language: "kor-ink")
        let helped = try ShippedModelTests.recognize(samples, language: "kor-ink", words: truths)
        let before = ShippedModelTests.characterErrorRate(truths: truths, readings: plain)
        let after = ShippedModelTests.characterErrorRate(truths: truths, readings: helped)
        #expect(after < before, "CER \(before) without the vocabulary, \(after) with it")
        for (truth, (without, with)) in zip(truths, zip(plain, helped)) where without == truth {
            #expect(with == truth)
        }
        let putRightByJamo = zip(truths, zip(plain, helped)).filter { truth, readings in
            let syllablesOff = RecognitionVocabulary.editDistance(Array(readings.0), Array(truth), choices: nil)
            return Double(syllablesOff) > VocabularyOptions().maxRelativeDistance * Double(truth.count) && readings.1 == truth
        }
        #expect(!putRightByJamo.isEmpty)
    }
}

/// Tesseract gives every Hangul syllable as a word of its own; the writer's spaces come back
/// from the network's spaces in the text line, or else from the gaps between them.
@Suite struct HangulWordTests {
    static func word(_ text: String, left: Double, right: Double, line: Int = 0, spaceBefore: Bool? = nil) -> RecognizedWord {
        RecognizedWord(text: text, confidence: 0.9, box: Rect(left: left, top: 0, right: right, bottom: 20),
                       line: line, symbols: [], spaceBefore: spaceBefore)
    }

    @Test func theNetworksSpacesDecideWhereTheyAreKnown() {
        // Far apart but read as one word, close together but read as two.
        let words = [Self.word("한", left: 0, right: 18, spaceBefore: false),
                     Self.word("글", left: 40, right: 58, spaceBefore: false),
                     Self.word("날", left: 60, right: 78, spaceBefore: true),
                     Self.word("씨", left: 100, right: 118)]
        #expect(TesseractHandle.joiningUnspaced(words).map(\.text) == ["한글", "날", "씨"])
        // A number written against a syllable is one word with it when the network says so,
        // never from the gap alone; two Latin words are left as Tesseract split them.
        let note = [Self.word("10", left: 0, right: 18), Self.word("층", left: 19, right: 37, spaceBefore: false),
                    Self.word("3", left: 60, right: 70, spaceBefore: true), Self.word("월", left: 71, right: 89),
                    Self.word("ok", left: 120, right: 138, spaceBefore: true), Self.word("go", left: 139, right: 150, spaceBefore: false)]
        #expect(TesseractHandle.joiningUnspaced(note).map(\.text) == ["10층", "3", "월", "ok", "go"])
    }

    @Test func theLineTextSaysWhichWordsHaveASpaceBefore() {
        var line: Substring? = "한글 날  ok\n"
        #expect(TesseractHandle.spaceBefore("한", in: &line) == false)
        #expect(TesseractHandle.spaceBefore("글", in: &line) == false)
        #expect(TesseractHandle.spaceBefore("날", in: &line) == true)
        #expect(TesseractHandle.spaceBefore("ok", in: &line) == true)
        // A word that is not next in the line: unknown, for the rest of the line too.
        var other: Substring? = "한 글"
        #expect(TesseractHandle.spaceBefore("글", in: &other) == nil)
        #expect(TesseractHandle.spaceBefore("한", in: &other) == nil)
    }

    /// Lines of the evaluation fonts read by the shipped model: the words come back about as
    /// the writer spaced them. The first 60 lines have 113 spaces; the sixth-run model's
    /// readings have 136 with the network's spaces (150 when a number or Latin word against a
    /// syllable was still always apart) and had 168 with a space wherever two syllables were
    /// 0.35 of their height apart (the rule before the network's were read).
    @Test func hangulLinesKeepTheWritersSpaces() throws {
        let samples = Array(try Corpus.samples("hangul-lines.jsonl", folder: "hangul").prefix(60))
        let readings = try ShippedModelTests.recognize(samples, language: "kor-ink")
        let spaces = { (texts: [String]) in texts.reduce(0) { $0 + $1.filter { $0 == " " }.count } }
        let truth = spaces(samples.map(\.text)), read = spaces(readings)
        #expect(Double(read) <= 1.4 * Double(truth), "\(read) spaces read, \(truth) written")
    }

    @Test func syllablesCloseTogetherAreOneWord() {
        let words = [Self.word("한", left: 0, right: 18), Self.word("글", left: 20, right: 38),
                     Self.word("날", left: 60, right: 78), Self.word("ok", left: 80, right: 98)]
        let joined = TesseractHandle.joiningUnspaced(words)
        #expect(joined.map(\.text) == ["한글", "날", "ok"])
        #expect(joined[0].box == Rect(left: 0, top: 0, right: 38, bottom: 20))
        // Syllables on different lines stay apart.
        #expect(TesseractHandle.joiningUnspaced([Self.word("한", left: 0, right: 18),
                                                 Self.word("글", left: 20, right: 38, line: 1)]).count == 2)
    }
}
