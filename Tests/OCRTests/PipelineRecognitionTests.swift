import Foundation
import Ink
import Testing
@testable import OCR

/// The whole pipeline (segmentation, normalisation, rendering, Tesseract, hints, mapping back)
/// on real Tesseract with corpus ink.
@Suite struct PipelineRecognitionTests {
    /// Clearly printed words (Hershey sans-serif and roman, ordinary jitter) are read exactly.
    @Test(arguments: ["artless", "CALCUTTA", "sharpness"])
    func printedWordIsReadExactly(_ word: String) throws {
        let harness = try PipelineHarness()
        let recognition = try harness.recognize(try PipelineInk.strokes("print.jsonl", text: word)).get()
        #expect(recognition.text == word)
        #expect(recognition.lines.count == 1)
        #expect(recognition.confidence > 0.5)
        #expect(recognition.candidates.first?.text == word)
    }

    /// Word and line boxes come back in board coordinates, inside the ink's bounding box, and
    /// each word box covers the ink of the strokes assigned to it (so the map back undid the
    /// rotation, scaling and padding of every step).
    @Test func boxesMapBackOntoTheInk() throws {
        let strokes = try PipelineInk.strokes("print.jsonl", text: "See Arthur at 2023-03-16")
        let recognition = try PipelineHarness().recognize(strokes).get()
        let ink = try #require(PipelineInk.bounds(strokes))
        let tolerance = 1e-6 * max(ink.width, ink.height)
        let line = try #require(recognition.lines.first)
        #expect(ink.grown(by: tolerance).contains(line.box))
        #expect(line.words.count >= 3)
        for word in line.words {
            #expect(ink.grown(by: tolerance).contains(word.box), "\(word.text) \(word.box) outside \(ink)")
            let own = try #require(PipelineInk.bounds(strokes, word.strokes))
            let covered = own.intersection(word.box).map { $0.width * $0.height } ?? 0
            #expect(covered >= 0.5 * own.width * own.height, "\(word.text): box \(word.box) vs its ink \(own)")
        }
        // Words are reported left to right.
        let lefts = line.words.map(\.box.minX)
        #expect(lefts == lefts.sorted())
    }

    /// Every stroke belongs to exactly one word, dots and bars included.
    @Test func strokeIndexesCoverEveryStrokeOnce() throws {
        let strokes = try PipelineInk.strokes("print.jsonl", text: "Take out trash Dec 23\nFRANCIS\nquadruples")
        let recognition = try PipelineHarness().recognize(strokes).get()
        let assigned = recognition.lines.flatMap(\.words).flatMap(\.strokes)
        #expect(assigned.sorted() == Array(strokes.indices))
    }

    /// Multi-line ink gives one line per written line, top to bottom, joined with newlines.
    @Test func multiLineInkGivesSeveralLines() throws {
        let text = "Bahama\nRydberg\nFETLOCKS"
        let recognition = try PipelineHarness().recognize(try PipelineInk.strokes("print.jsonl", text: text)).get()
        #expect(recognition.lines.count == 3)
        #expect(recognition.text == text)
        let tops = recognition.lines.map(\.box.minY)
        #expect(tops == tops.sorted())
    }

    /// A date whose slash is drawn three times as tall as its digits, under the `number` hint
    /// (tall marks squeezed by default): read as written, and the line box is still the box of the ink
    /// as drawn (the squeeze changes the image, not where the ink is).
    @Test func tallSlashSqueezedForTheImageOnly() throws {
        var strokes = try PipelineInk.strokes("print.jsonl", text: "2/27")
        let ink = try #require(PipelineInk.bounds(strokes))
        // The slash: the tallest stroke (print draws it 1.3 times as tall as the digits).
        let slash = try #require(strokes.indices.max { (strokes[$0].bounds?.height ?? 0) < (strokes[$1].bounds?.height ?? 0) })
        let box = try #require(strokes[slash].bounds)
        let scale = 3 * ink.height / max(box.height, 1)
        strokes[slash].y = strokes[slash].y.map { box.center.y + ($0 - box.center.y) * scale }
        let harness = try PipelineHarness()
        let recognition = try harness.recognize(strokes, charset: .number).get()
        #expect(recognition.text == "2/27")
        let drawn = try #require(PipelineInk.bounds(strokes))
        let line = try #require(recognition.lines.first)
        #expect(abs(line.box.height - drawn.height) < 1e-6 * drawn.height, "\(line.box) vs \(drawn)")
    }

    /// The digits hint: a phone number whose unconstrained reading has letters and a tilde
    /// comes back as exactly its digits, separators dropped.
    @Test func digitsHintReadsOnlyDigits() throws {
        let strokes = try PipelineInk.strokes("print.jsonl", text: "555-9079")
        let harness = try PipelineHarness()
        let plain = try harness.recognize(strokes).get()
        let digits = try harness.recognize(strokes, charset: .digits).get()
        #expect(digits.text == "5559079")
        #expect(plain.text != digits.text)
        for candidate in digits.candidates {
            #expect(candidate.text.allSatisfy { $0.isASCII && $0.isNumber || $0 == "\n" || $0 == " " }, "\(candidate.text)")
        }
    }

    /// Candidates: at most five, distinct, best first.
    @Test func candidatesAreDistinctAndBestFirst() throws {
        let strokes = try PipelineInk.strokes("script.jsonl", text: try firstScriptWord())
        let recognition = try PipelineHarness().recognize(strokes).get()
        #expect(recognition.candidates.count <= 5)
        #expect(Set(recognition.candidates.map(\.text)).count == recognition.candidates.count)
        #expect(recognition.candidates.first?.text == recognition.text)
    }

    /// `quality: best` reads several renderings and still returns one answer with boxes.
    @Test func bestQualityReadsAPrintedWord() throws {
        let strokes = try PipelineInk.strokes("print.jsonl", text: "artless")
        let recognition = try PipelineHarness().recognize(strokes, quality: .best).get()
        #expect(recognition.text == "artless")
        #expect(recognition.lines.first?.words.first?.strokes.isEmpty == false)
    }

    /// No ink, a single dot and a stroke without points: an answer, never a crash.
    @Test func emptyAndDotInkAnswer() throws {
        let harness = try PipelineHarness()
        let empty = try harness.recognize([]).get()
        #expect(empty.text.isEmpty && empty.lines.isEmpty && empty.candidates.isEmpty)
        let dot = try harness.recognize([Stroke(x: [100], y: [200])]).get()
        #expect(dot.lines.count <= 1)
        let hollow = try harness.recognize([Stroke(x: [], y: []), Stroke(x: [5, 5], y: [5, 5])]).get()
        #expect(hollow.lines.flatMap(\.words).flatMap(\.strokes).allSatisfy { $0 == 1 })
        for hint in CharacterHint.allCases {
            _ = try harness.recognize([Stroke(x: [100], y: [200])], charset: hint, quality: .best).get()
        }
    }

    /// A deadline shorter than the work fails with `.deadlineExceeded` promptly instead of
    /// finishing late: within 500 ms (for a plain build; sanitizers scale it) of the imaging,
    /// which runs whole before the first line is read (lines found, strokes repaired; in a debug
    /// build on a slow machine it alone can take over half a second for these 90 lines, and
    /// reading them in four renderings several seconds).
    @Test func deadlineIsRespected() throws {
        var strokes: [Stroke] = []
        let line = try PipelineInk.strokes("print.jsonl", text: "Take out trash Dec 23\nFRANCIS\nquadruples")
        for row in 0..<30 {
            strokes += line.map { $0.applying(AffineTransform(translationX: 0, y: Double(row) * 400)) }
        }
        let harness = try PipelineHarness()
        let imaging = ContinuousClock.now
        let prepared = RecognitionImaging(imager: harness.recognizer.imager(for: "ink"), options: RecognitionOptions())
            .prepare(strokes, hint: .text)
        let imaged = ContinuousClock.now - imaging
        #expect(prepared.lines.lines.count == 90)
        let start = ContinuousClock.now
        let result = harness.recognize(strokes, quality: .best, deadline: 30)
        let elapsed = ContinuousClock.now - start
        #expect(result.failure == .deadlineExceeded(milliseconds: 30))
        #expect(elapsed < imaged + .milliseconds(500) * SanitizerSlowdown.factor, "took \(elapsed), the imaging alone \(imaged)")
    }

    /// A request whose deadline ran out while it waited behind another for the only worker is
    /// refused as the server being busy, not as too much ink: the same small ink read alone is fine.
    @Test func aDeadlineSpentWaitingForAWorkerIsOverload() throws {
        var heavy: [Stroke] = []
        let line = try PipelineInk.strokes("print.jsonl", text: "Take out trash Dec 23\nFRANCIS\nquadruples")
        for row in 0..<30 {
            heavy += line.map { $0.applying(AffineTransform(translationX: 0, y: Double(row) * 400)) }
        }
        let small = try PipelineInk.strokes("print.jsonl", text: "artless")
        let harness = try PipelineHarness()
        let busy = DispatchSemaphore(value: 0)
        try harness.recognizer.recognize(RecognitionRequest(strokes: heavy, language: "eng", quality: .best),
                                         deadlineMilliseconds: 400) { _ in busy.signal() }
        let waited = harness.recognize(small, deadline: 100)
        busy.wait()
        #expect(waited.failure == .overloaded(retryAfterSeconds: 1))
        #expect(try harness.recognize(small, deadline: 5_000).get().text == "artless")
    }

    private func firstScriptWord() throws -> String {
        let sample = try #require(try Corpus.samples("script.jsonl").first { !$0.text.contains(" ") && !$0.text.contains("\n") })
        return sample.text
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
