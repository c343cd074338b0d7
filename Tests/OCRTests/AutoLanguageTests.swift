import Foundation
import Dispatch
import Geometry
import Ink
import Locking
import Testing
@testable import OCR

/// `"lang": "auto"`: every automatic language's model reads the ink, the surer reading is kept.
@Suite struct AutoLanguageTests {
    static func reading(_ lines: [Recognition.Line], ocrMs: Double) -> Recognition {
        let text = lines.map(\.text).joined(separator: "\n")
        let confidence = RecognitionPipeline.confidence(of: lines)
        return Recognition(text: text, confidence: confidence, candidates: [.init(text: text, confidence: confidence)],
                           lines: lines, timings: .init(renderMs: 1, ocrMs: ocrMs))
    }

    static func line(_ text: String, _ confidence: Double, x: Double = 0, y: Double = 0, width: Double = 100) -> Recognition.Line {
        Recognition.Line(text: text, confidence: confidence, box: Rect(x: x, y: y, width: width, height: 40), words: [])
    }

    @Test func hangulThatFillsTheInkIsKeptWhenTheLatinModelIsUnsure() {
        // Hangul ink: the Latin model writes confident-looking noise over several lines.
        let noise = Self.reading([Self.line("z", 0.8, width: 40), Self.line("g 2 -", 0.7, y: 40, width: 60)], ocrMs: 3)
        let hangul = Self.reading([Self.line("물렁댈", 0.3, width: 120)], ocrMs: 5)
        let chosen = AutoLanguage.choose(latin: noise, korean: hangul, density: 3)
        #expect(chosen.text == "물렁댈")
        #expect(chosen.timings.ocrMs == 8 && chosen.timings.renderMs == 2)
        // When no reading settles it, the density does not matter unless the ink is as sparse as
        // Latin, and then Hangul that fills it well stays.
        #expect(AutoLanguage.choose(latin: noise, korean: hangul, density: 2.5).text == "물렁댈")
        #expect(AutoLanguage.choose(latin: noise, korean: hangul, density: 1).text == "물렁댈")
        // A note: Latin letters and Hangul together count as Korean.
        let note = Self.reading([Self.line("email 사기", 0.8, width: 220)], ocrMs: 5)
        let email = Self.reading([Self.line("email ($3)", 0.63, width: 220)], ocrMs: 3)
        #expect(AutoLanguage.choose(latin: email, korean: note, density: 3).text == "email 사기")
        // When both settle it: the Korean reading on dense ink, the Latin one on other ink.
        let dates = Self.reading([Self.line("10% 19%", 0.9, width: 160)], ocrMs: 3)
        let korean = Self.reading([Self.line("10월 19일", 0.9, width: 160)], ocrMs: 3)
        #expect(AutoLanguage.choose(latin: dates, korean: korean, density: 3).text == "10월 19일")
        #expect(AutoLanguage.choose(latin: dates, korean: korean, density: 2.5).text == "10% 19%")
    }

    @Test func latinInkStaysLatin() {
        // A sure Latin reading stays on sparse ink, whatever the Korean model wrote.
        let of = Self.reading([Self.line("of", 0.96, width: 50)], ocrMs: 3)
        #expect(AutoLanguage.choose(latin: of, korean: Self.reading([Self.line("영", 0.87, width: 50)], ocrMs: 3), density: 2.5).text == "of")
        // One syllable for a long word does not fill the ink.
        let input = Self.reading([Self.line("inpot", 0.6, width: 200)], ocrMs: 3)
        for density in [AutoLanguage.hangulDensity, 2.5] {
            #expect(AutoLanguage.choose(latin: input, korean: Self.reading([Self.line("회", 0.3, width: 40)], ocrMs: 3), density: density).text == "inpot")
            // No Hangul, no Korean.
            #expect(AutoLanguage.choose(latin: input, korean: Self.reading([Self.line("input", 0.9, width: 200)], ocrMs: 3), density: density).text == "inpot")
            #expect(AutoLanguage.choose(latin: .empty, korean: .empty, density: density).text.isEmpty)
            #expect(AutoLanguage.choose(latin: .empty, korean: Self.reading([Self.line("밀", 0.2)], ocrMs: 1), density: density).text == "밀")
        }
        // Neither sure: two syllables over three line heights fill the ink enough on ink between
        // Latin's and Hangul's density, not on ink as sparse as Latin.
        let cat = Self.reading([Self.line("cat", 0.6, width: 120)], ocrMs: 3)
        let twoSyllables = Self.reading([Self.line("고양", 0.3, width: 120)], ocrMs: 3)
        #expect(AutoLanguage.fill(twoSyllables, cat) > AutoLanguage.minimumFill && AutoLanguage.fill(twoSyllables, cat) < AutoLanguage.sparseFill)
        #expect(AutoLanguage.choose(latin: cat, korean: twoSyllables, density: 2.5).text == "고양")
        #expect(AutoLanguage.choose(latin: cat, korean: twoSyllables, density: 1).text == "cat")
        #expect(!AutoLanguage.isMostlyHangul("12:30"))
        #expect(AutoLanguage.isMostlyHangul("₩2,000 사과 3개"))
        #expect(!AutoLanguage.isMostlyHangul("meeting room 회"))
    }

    /// How dense ink is tells Hangul from Latin: the committed Hangul words of the evaluation
    /// fonts are dense, Latin words traced from hand fonts mostly not (tracing a font makes more
    /// strokes than a pen: real Latin hands are sparser still, training/RUNS.md).
    @Test func hangulIsWrittenMoreDenselyThanLatin() throws {
        let segmentation = LineSegmenter.Options()
        let densities = { (samples: [CorpusSample]) in
            samples.map { AutoLanguage.density(RecognitionImagingTests.strokes($0), segmentation: segmentation) }
        }
        let hangul = try densities(Corpus.samples("hangul-words.jsonl", folder: "hangul"))
        let latin = try densities(Corpus.samples("hand-words.jsonl"))
        let dense = { (values: [Double]) in values.filter(AutoLanguage.isDense).count }
        let sparse = { (values: [Double]) in values.filter(AutoLanguage.isSparse).count }
        #expect(dense(hangul) >= hangul.count * 9 / 10, "\(dense(hangul)) of \(hangul.count) Hangul words dense")
        #expect(dense(latin) <= latin.count * 4 / 10, "\(dense(latin)) of \(latin.count) Latin words dense")
        #expect(sparse(hangul) <= hangul.count / 100, "\(sparse(hangul)) of \(hangul.count) Hangul words as sparse as Latin")
        #expect(sparse(latin) >= latin.count / 4, "\(sparse(latin)) of \(latin.count) Latin words as sparse as Latin")
        #expect(StrokeDensity.strokesPerLineHeight([], lines: []) == 0)
    }

    @Test func aSureReadingIsNotReadAgain() {
        let options = RecognitionOptions()
        let sure = Self.reading([Self.line("milk", 0.9)], ocrMs: 1)
        let unsure = Self.reading([Self.line("mlk", 0.3)], ocrMs: 1)
        #expect(!options.wouldReread(sure, hint: .text) && options.wouldReread(unsure, hint: .text))
        // A line of several words: each word against lineRereadBelow; numbers against numberRereadBelow.
        let words = Recognition.Line(text: "milk eggs", confidence: 0.9, box: Rect(x: 0, y: 0, width: 100, height: 40), words: [
            Recognition.Word(text: "milk", confidence: 0.95, box: Rect(x: 0, y: 0, width: 40, height: 40), strokes: [0]),
            Recognition.Word(text: "eggs", confidence: 0.45, box: Rect(x: 50, y: 0, width: 40, height: 40), strokes: [1]),
        ])
        #expect(options.wouldReread(Self.reading([words], ocrMs: 1), hint: .text))
        #expect(options.wouldReread(Self.reading([Self.line("12", 0.85)], ocrMs: 1), hint: .number))
        #expect(!options.wouldReread(Self.reading([Self.line("12", 0.3)], ocrMs: 1), hint: .digits))
    }

    /// Under `quality: auto`, each model reads the ink once; only an unsure choice is read again,
    /// by its own model, as a request in that language alone, which takes the line's first
    /// rendering as the first job read it instead of reading it twice.
    @Test func onlyAnUnsureChoiceIsReadAgain() throws {
        let catalog = TessdataCatalog(extraDirectories: [ShippedModelTests.modelsDirectory])
        let strokes = try PipelineInk.strokes("print.jsonl", text: "artless")
        var tesseractCalls: [Int] = []
        for threshold in [0.0, 1.0] {
            // One worker: the jobs run one after another (a job that starts after the answer reads
            // nothing), so how many readings are made does not depend on timing.
            let pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, queueDepth: 8, defaultLanguage: "ink", catalog: catalog))
            defer { pool.shutdown() }
            // Every reading is sure (0) or unsure (1).
            let options = RecognitionOptions(textRereadBelow: threshold, lineRereadBelow: threshold)
            let recognizer = InkRecognizer(pool: pool, options: options, automaticLanguages: ("ink", "kor-ink"))
            let done = DispatchSemaphore(value: 0)
            let text = Locking.Lock("")
            try recognizer.recognize(RecognitionRequest(strokes: strokes, language: AutoLanguage.name), deadlineMilliseconds: 60_000) { result in
                text.withLock { $0 = (try? result.get().text) ?? "" }
                done.signal()
            }
            done.wait()
            pool.shutdown()   // an answer may come before the last job ends: let it end
            #expect(text.withLock { $0 } == "artless")
            tesseractCalls.append(pool.metrics.recognitions)
        }
        // Each model read the one-line word once at most; read again, only in the renderings
        // after the first.
        #expect((1...2).contains(tesseractCalls[0]), "\(tesseractCalls)")
        #expect(tesseractCalls[1] - tesseractCalls[0] == RecognitionOptions().renders(for: .auto).count - 1, "\(tesseractCalls)")
    }

    /// Every reading unsure, so every choice is read again (Hangul in the Korean job itself, Latin
    /// by a job of its own, both from the first readings already made): what `auto` answers is
    /// what the chosen model reads alone at `quality: auto`, sample by sample.
    @Test func aChoiceReadAgainIsWhatItsOwnModelReadsAlone() throws {
        let options = RecognitionOptions(textRereadBelow: 1, lineRereadBelow: 1)
        let hangul = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(12))
        let latin = Array(try Corpus.samples("hand-words.jsonl").prefix(12))
        for (samples, own) in [(hangul, "kor-ink"), (latin, "ink")] {
            let alone = try ShippedModelTests.recognitions(samples, language: own, options: options).map { $0?.text }
            let auto = try ShippedModelTests.recognitions(samples, language: AutoLanguage.name, options: options, workers: 2)
                .map { $0?.text }
            let chosen = zip(samples, auto).filter { sample, text in
                (text.map(AutoLanguage.isMostlyHangul) ?? false) == (own == "kor-ink")
            }.count
            #expect(chosen >= samples.count * 3 / 4, "\(own): its model chosen for \(chosen) of \(samples.count)")
            for (index, (a, b)) in zip(auto, alone).enumerated()
            where (a.map(AutoLanguage.isMostlyHangul) ?? false) == (own == "kor-ink") {
                #expect(a == b, "\(own) sample \(index): auto \(a ?? "-"), alone \(b ?? "-")")
            }
        }
    }

    /// The shipped models on the committed ink: Hangul words of the evaluation fonts and Latin
    /// words of held-out hands, each read with auto about as well as with its own model.
    /// (Measured on held-out sets in Models/README.md; this guards against a choice gone wrong.)
    @Test func readsEachScriptAboutAsWellAsItsOwnModel() throws {
        let hangul = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(40))
        let latin = Array(try Corpus.samples("hand-words.jsonl").prefix(40))
        for (samples, own) in [(hangul, "kor-ink"), (latin, "ink")] {
            let truths = samples.map(\.text)
            let alone = ShippedModelTests.characterErrorRate(
                truths: truths, readings: try ShippedModelTests.recognize(samples, language: own))
            let auto = ShippedModelTests.characterErrorRate(
                truths: truths, readings: try ShippedModelTests.recognitions(samples, language: AutoLanguage.name, workers: 2)
                    .map { $0?.text ?? "" })
            #expect(auto <= alone + 0.02, "\(own): auto \(auto), alone \(alone)")
        }
    }
}
