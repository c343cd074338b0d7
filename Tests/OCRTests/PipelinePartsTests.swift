import Foundation
import Ink
import Geometry
import Testing
@testable import OCR

/// The pipeline's decisions that need no Tesseract: stroke repair, vocabulary, consensus,
/// mark cleanup.
@Suite struct PipelinePartsTests {
    // MARK: Rereading

    /// `quality: auto` rereads a line of text read as one word below `textRereadBelow`, never a
    /// whole line of several words (its words, alone), anything under the `number` hint below
    /// `numberRereadBelow` and nothing under `digits`; and reads exactly `render` then
    /// `rereadRenders`.
    @Test func autoRereadThresholdsFollowHintAndWordCount() {
        var options = RecognitionOptions()
        (options.textRereadBelow, options.lineRereadBelow, options.numberRereadBelow) = (0.4, 0.1, 0.9)
        #expect(options.rereadThreshold(hint: .text, words: 1) == 0.4)
        #expect(options.rereadThreshold(hint: .text, words: 0) == 0.4)
        #expect(options.rereadThreshold(hint: .text, words: 3) == 0)  // its words are read again alone
        #expect(options.rereadThreshold(hint: .number, words: 1) == 0.9)
        #expect(options.rereadThreshold(hint: .number, words: 3) == 0.9)
        #expect(options.rereadThreshold(hint: .digits, words: 1) == 0)
        #expect(options.renders(for: .fast) == [options.render])
        #expect(options.renders(for: .auto) == [options.render] + options.rereadRenders)
        #expect(options.renders(for: .best) == options.bestRenders)
        #expect(Set(options.rereadRenders).isSubset(of: Set(options.bestRenders)))
    }

    // MARK: Stroke repair

    /// A zig-zag "word" drawn in small steps, then a pen jump to a second word, then a stray
    /// point far away: cut at both jumps, the stray point dropped, origins kept.
    @Test func repairCutsAtUntrackedJumps() {
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<40 { xs.append(Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        for i in 0..<40 { xs.append(300 + Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        xs.append(5_000); ys.append(-3_000)
        let plain = Stroke(x: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], y: [0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
        let repaired = StrokeRepair().repair([plain, Stroke(x: xs, y: ys)])
        #expect(repaired.changed)
        #expect(repaired.strokes.count == 3)
        #expect(repaired.origin == [0, 1, 1])
        #expect(repaired.strokes[1].pointCount == 40 && repaired.strokes[2].pointCount == 40)
        #expect(repaired.strokes[2].x.max() == 378)
    }

    /// Ordinary handwriting, with uneven but continuous steps, is left alone.
    @Test func repairLeavesContinuousStrokesAlone() {
        let xs = (0..<60).map { Double($0) * (1 + Double($0 % 7)) }
        let ys = (0..<60).map { 20 * sin(Double($0) / 3) }
        let repaired = StrokeRepair().repair([Stroke(x: xs, y: ys), Stroke(x: [1], y: [1])])
        #expect(!repaired.changed)
        #expect(repaired.strokes.count == 2)
    }

    // MARK: Coarse ink

    /// A circle of radius 40 traced finely, and the same circle as a digitiser with a grid of 8
    /// units reports it (a staircase).
    static func circle(grid: Double?) -> Stroke {
        var xs: [Double] = [], ys: [Double] = [], ts: [Double] = []
        for i in 0...200 {
            let angle = Double(i) / 200 * 2 * Double.pi
            var x = 40 * cos(angle), y = 40 * sin(angle)
            if let grid { x = (x / grid).rounded() * grid; y = (y / grid).rounded() * grid }
            xs.append(x); ys.append(y); ts.append(Double(i) * 5)
        }
        return Stroke(x: xs, y: ys, t: ts)
    }

    static func radialError(_ stroke: Stroke) -> Double {
        var total = 0.0
        for index in 0..<stroke.pointCount {
            let x = stroke.x[index], y = stroke.y[index]
            total += abs((x * x + y * y).squareRoot() - 40)
        }
        return total / Double(stroke.pointCount)
    }

    /// Ink snapped to a coarse grid is smoothed back towards the curve that was drawn: nearer
    /// the true circle than the staircase, ends where they were, times still in order.
    @Test func coarseInkIsSmoothed() throws {
        let snapped = Self.circle(grid: 8)
        let smoothed = try #require(StrokeSmoothing().smoothed([snapped]))
        #expect(smoothed.count == 1)
        let stroke = smoothed[0]
        #expect(Self.radialError(stroke) < Self.radialError(snapped) / 2)
        #expect(stroke.x.first == snapped.x.first && stroke.y.first == snapped.y.first)
        #expect(stroke.x.last == snapped.x.last && stroke.y.last == snapped.y.last)
        let times = try #require(stroke.t)
        #expect(times.count == stroke.pointCount)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times.last == 1000)
    }

    /// Fine ink is left exactly as it is; so is ink on a grid that is fine for its size.
    @Test func fineInkIsNotSmoothed() {
        let smoothing = StrokeSmoothing()
        #expect(smoothing.smoothed([Self.circle(grid: nil)]) == nil)
        #expect(smoothing.smoothed([Self.circle(grid: 1)]) == nil)
    }

    /// A hostile request (a line a million units long, one unit high, on an integer grid; or a
    /// few far-apart points) cannot make smoothing produce unbounded ink.
    @Test func smoothingStaysBounded() throws {
        let xs = (0..<400).map { Double($0 * 2_500) }
        let long = Stroke(x: xs, y: xs.indices.map { Double($0 % 2) })
        let smoothed = try #require(StrokeSmoothing().smoothed([long]))
        #expect(smoothed[0].pointCount <= 8 * 400 + 2)
        let far = Stroke(x: [0, 1e6, 0, 1e6, 0, 1e6, 0], y: [0, 3, 7, 11, 14, 18, 21])
        let curved = try #require(StrokeSmoothing().smoothed([far]))
        #expect(curved[0].pointCount <= 8 * 7)
        // A curve step of 10⁻¹⁵ over segments 10⁶ long: the pieces per segment, past `Int.max`
        // as a ratio, trapped (one request stopped the server); at most 8 now.
        let trace = StrokeSmoothing().curve(through: far, step: 1e-15)
        #expect(trace.pointCount <= 8 * 7)
    }

    /// Points far apart (a slow digitiser; on no grid) get a curve through them: every point
    /// kept, the new points near the circle they were taken from where the polygon's chords
    /// fall inside it, times in order.
    @Test func sparseInkGetsACurveThroughItsPoints() throws {
        let count = 12
        let angles = (0..<count).map { Double($0) / Double(count) * 2 * Double.pi + 0.1 }
        let sparse = Stroke(x: angles.map { 40 * cos($0) }, y: angles.map { 40 * sin($0) },
                            t: (0..<count).map { Double($0) * 30 })
        let curved = try #require(StrokeSmoothing().smoothed([sparse]))[0]
        #expect(curved.pointCount > 4 * count)
        for index in 0..<count {
            #expect(zip(curved.x, curved.y).contains { $0 == sparse.x[index] && $1 == sparse.y[index] })
        }
        // A chord of 30 degrees falls 40 (1 - cos 15°) = 1.36 inside the circle at its middle.
        var worst = 0.0
        for index in 0..<curved.pointCount {
            let x = curved.x[index], y = curved.y[index]
            worst = max(worst, abs((x * x + y * y).squareRoot() - 40))
        }
        #expect(worst < 1.36 / 2)
        let times = try #require(curved.t)
        #expect(times.count == curved.pointCount && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// The imaging smooths coarse ink before it draws it (unless told not to), and says so.
    @Test func imagingSmoothsCoarseInk() {
        let snapped = Self.circle(grid: 8)
        let ink = RecognitionImaging().prepare([snapped], hint: .text)
        #expect(ink.repaired && ink.origin == [0])
        #expect(ink.strokes[0] != snapped)
        let off = RecognitionImaging(options: RecognitionOptions(smoothsCoarseInk: false)).prepare([snapped], hint: .text)
        #expect(!off.repaired && off.strokes == [snapped])
    }

    // MARK: Tall marks

    /// "4/2" with the slash twice as tall as the digits: digits 10 high on y 100...110, the
    /// slash from 97 to 117 (it sits low).
    static let tallSlashDate: [Stroke] = [
        Stroke(x: [0, 5, 8, 8], y: [100, 108, 108, 110]),
        Stroke(x: [20, 35], y: [117, 97]),
        Stroke(x: [40, 48, 40, 48], y: [100, 100, 110, 110]),
    ]

    /// The slash is squeezed to 1.15 digit heights towards the digits' band (its centre, 105,
    /// stays put: 117 → 111.9, 97 → 100.4); the digits and every x stay as drawn.
    @Test func tallMarkSqueezedToTheDigits() {
        var strokes = Self.tallSlashDate
        #expect(TallMarks().squeeze(&strokes, line: [0, 1, 2]) == 1)
        #expect(strokes[0] == Self.tallSlashDate[0] && strokes[2] == Self.tallSlashDate[2])
        #expect(strokes[1].x == Self.tallSlashDate[1].x)
        let slash = strokes[1].y
        #expect(abs(slash[0] - 111.9) < 1e-9 && abs(slash[1] - 100.4) < 1e-9)
    }

    /// Digits of even height, a lone stroke, and a mark only a little taller than the digits
    /// are left alone.
    @Test func numbersWithoutTallMarksUnchanged() {
        var even = [Stroke(x: [0, 0], y: [0, 10]), Stroke(x: [5, 9, 5], y: [0, 5, 10]), Stroke(x: [12, 14], y: [-1, 12])]
        #expect(TallMarks().squeeze(&even, line: [0, 1, 2]) == 0)
        var one = [Stroke(x: [0, 0], y: [0, 40])]
        #expect(TallMarks().squeeze(&one, line: [0]) == 0)
        #expect(one[0].y == [0, 40])
    }

    /// The imaging squeezes under the `number` hint only, unless told not to; only the strokes
    /// drawn into the images change, not those boxes are measured on.
    @Test func imagingSqueezesTallMarksUnderNumberHint() {
        // (Its few far-apart points get a curve through them first; the slash, one straight
        // segment, stays straight.)
        let on = RecognitionImaging(), off = RecognitionImaging(options: RecognitionOptions(squeezesTallMarks: false))
        let ink = on.prepare(Self.tallSlashDate, hint: .number)
        let drawn = off.prepare(Self.tallSlashDate, hint: .number)
        #expect(drawn.imageStrokes == drawn.strokes && ink.strokes == drawn.strokes)
        let squeezed = ink.imageStrokes
        #expect(squeezed[0] == drawn.strokes[0] && squeezed[2] == drawn.strokes[2])
        #expect(drawn.strokes[1] == Self.tallSlashDate[1] && squeezed[1].y.max()! - squeezed[1].y.min()! < 13)
        #expect(on.prepare(Self.tallSlashDate, hint: .text).imageStrokes == off.prepare(Self.tallSlashDate, hint: .text).strokes)
        #expect(on.prepare(Self.tallSlashDate, hint: .digits).imageStrokes == drawn.strokes)
    }

    // MARK: Vocabulary

    static func word(_ text: String, confidence: Double, choices: [[String]] = []) -> RecognizedWord {
        let box = Rect(left: 0, top: 0, right: 10, bottom: 10)
        let symbols = text.enumerated().map { index, character in
            let alternatives = index < choices.count ? choices[index] : []
            return RecognizedSymbol(text: String(character), confidence: confidence, box: box,
                                    choices: ([String(character)] + alternatives).map { SymbolChoice(text: $0, confidence: 0.1) })
        }
        return RecognizedWord(text: text, confidence: confidence, box: box, line: 0, symbols: symbols)
    }

    /// A sure reading is replaced only when Tesseract's own alternatives spell the vocabulary
    /// word; an unsure one also on distance alone.
    @Test func vocabularyNeedsEvidence() {
        let vocabulary = RecognitionVocabulary(["Bertrand", "Lisbon", "milk"], options: VocabularyOptions())
        // 'c' had 'e' as an alternative: "Bcrtrand" → "Bertrand" even when sure.
        #expect(vocabulary.replacement(for: Self.word("Bcrtrand", confidence: 0.9, choices: [[], ["e"]])) == "Bertrand")
        // Same distance, no alternative to back it, sure: kept.
        #expect(vocabulary.replacement(for: Self.word("Bcrtrand", confidence: 0.9)) == nil)
        // Unsure: replaced on distance alone.
        #expect(vocabulary.replacement(for: Self.word("Bcrtrand", confidence: 0.2)) == "Bertrand")
        // Too far (3 edits in 6 letters): kept, however unsure.
        #expect(vocabulary.replacement(for: Self.word("Lxsxxn", confidence: 0.1)) == nil)
        // Punctuation around the word survives; case is taken from the vocabulary.
        #expect(vocabulary.replacement(for: Self.word("lisbon,", confidence: 0.9)) == "Lisbon,")
        // Short words are never touched.
        #expect(RecognitionVocabulary(["ox"], options: VocabularyOptions()).replacement(for: Self.word("on", confidence: 0.1)) == nil)
    }

    /// Hangul is matched by jamo: a two-syllable word one jamo off is replaced as a Latin word
    /// one letter off is (counted by syllables it was too short to be touched); a word further
    /// off than the limit, and a lone syllable, are not.
    @Test func vocabularyMatchesHangulByJamo() {
        let vocabulary = RecognitionVocabulary(["사과", "바나나", "김"], options: VocabularyOptions())
        #expect(RecognitionVocabulary.spelled(Array("과a")).map(String.init) == ["\u{1100}", "\u{116A}", "a"])
        #expect(RecognitionVocabulary.spelled(Array("김")).count == 3)
        // 과 → 괴 (vowel ㅘ → ㅚ): one of four jamo.
        #expect(vocabulary.replacement(for: Self.word("사괴", confidence: 0.2)) == "사과")
        #expect(vocabulary.replacement(for: Self.word("사괴", confidence: 0.9)) == nil)
        #expect(vocabulary.replacement(for: Self.word("사괴", confidence: 0.9, choices: [[], ["과"]])) == "사과")
        // 바나나 (six jamo, two edits allowed): a whole syllable wrong, 바거나 (ㄴ → ㄱ, ㅏ → ㅓ), is
        // two; 보거나 is three, too far however unsure.
        #expect(vocabulary.replacement(for: Self.word("바거나", confidence: 0.2)) == "바나나")
        #expect(vocabulary.replacement(for: Self.word("보거나", confidence: 0.1)) == nil)
        // One syllable is never replaced, whatever its jamo.
        #expect(vocabulary.replacement(for: Self.word("길", confidence: 0.1)) == nil)
    }

    /// Two vocabulary words equally close: nothing is replaced.
    @Test func vocabularyLeavesAmbiguityAlone() {
        let vocabulary = RecognitionVocabulary(["cart", "card"], options: VocabularyOptions())
        #expect(vocabulary.replacement(for: Self.word("carx", confidence: 0.2)) == nil)
    }

    // MARK: Consensus

    static func reading(_ text: String, confidence: Double) -> LineReading {
        let image = LineImage(image: GrayImage(width: 1, height: 1), strokeIndexes: [], boardToImage: .identity, imageToBoard: .identity)
        let words = text.split(separator: " ").map { Self.word(String($0), confidence: confidence) }
        return LineReading(pieces: [LineReading.Piece(image: image, page: TesseractPage(text: text, meanConfidence: confidence,
                                                                                         words: words, elapsed: .zero))])
    }

    /// The reading most others agree with wins over a more confident outlier.
    @Test func consensusPrefersAgreement() throws {
        let readings = [Self.reading("Wxlliam", confidence: 0.95), Self.reading("William", confidence: 0.6),
                        Self.reading("Willian", confidence: 0.6), Self.reading("William", confidence: 0.5)]
        #expect(LineReading.consensus(readings, confidenceWeight: 0.5)?.text == "William")
        // Two readings: the more confident one.
        #expect(LineReading.consensus(Array(readings.prefix(2)), confidenceWeight: 0.5)?.text == "Wxlliam")
        #expect(LineReading.consensus([], confidenceWeight: 0.5) == nil)
    }

    /// Each stroke goes to the word whose box holds most of its points; where Tesseract's box of
    /// a word reaches over the next words (as LSTM word boxes do), a point inside several boxes
    /// counts for the narrowest, so the later words keep their strokes.
    @Test func strokesGoToTheNarrowestOfOverlappingWordBoxes() {
        let boxes = [("call", 0.0, 60.0), ("office", 170, 440), ("at", 300, 340), ("noon", 360, 440)]
        let words = boxes.map { text, left, right in
            RecognizedWord(text: text, confidence: 0.9, box: Rect(left: left, top: 0, right: right, bottom: 36), line: 0, symbols: [])
        }
        // One stroke under each word, at its own centre, and a dot left of everything.
        let strokes = [Stroke(x: [10, 50], y: [10, 20]), Stroke(x: [180, 290], y: [10, 20]), Stroke(x: [305, 335], y: [10, 20]),
                       Stroke(x: [365, 435], y: [10, 20]), Stroke(x: [-20, -19], y: [5, 5])]
        let image = LineImage(image: GrayImage(width: 440, height: 36), strokeIndexes: Array(strokes.indices),
                              boardToImage: .identity, imageToBoard: .identity)
        let piece = LineReading.Piece(image: image, page: TesseractPage(text: "call office at noon", meanConfidence: 0.9,
                                                                       words: words, elapsed: .zero))
        #expect(LineReading.strokeMembers(of: piece, strokes: strokes) == [[0, 4], [1], [2], [3]])
    }

    // MARK: Cleanup

    static func piece(_ symbols: [(String, Double, Double)], strokes: [Int]) -> LineReading.Piece {
        let recognized = symbols.map { text, left, right in
            RecognizedSymbol(text: text, confidence: 0.9, box: Rect(left: left, top: 0, right: right, bottom: 24), choices: [])
        }
        let word = RecognizedWord(text: symbols.map(\.0).joined(), confidence: 0.9,
                                  box: Rect(left: symbols.first?.1 ?? 0, top: 0, right: symbols.last?.2 ?? 0, bottom: 24),
                                  line: 0, symbols: recognized)
        let image = LineImage(image: GrayImage(width: 120, height: 36), strokeIndexes: strokes, boardToImage: .identity, imageToBoard: .identity)
        return LineReading.Piece(image: image, page: TesseractPage(text: word.text, meanConfidence: 0.9, words: [word], elapsed: .zero))
    }

    /// A full stop read at the end of a word stays only if a small stroke was drawn there.
    @Test func cleanupDropsMarksNobodyDrew() {
        let letters = Stroke(x: [0, 30, 60, 88], y: [0, 24, 0, 24])
        let dot = Stroke(x: [100, 101], y: [22, 23])
        var undrawn = Self.piece([("a", 0, 40), ("b", 40, 88), (".", 88, 91)], strokes: [0])
        RecognitionCleanup.clean(&undrawn, strokes: [letters, dot], inkHeight: 24)
        #expect(undrawn.page.text == "ab")
        var drawn = Self.piece([("a", 0, 40), ("b", 40, 88), (".", 98, 103)], strokes: [0, 1])
        RecognitionCleanup.clean(&drawn, strokes: [letters, dot], inkHeight: 24)
        #expect(drawn.page.text == "ab.")
    }

    /// Dash lengths a pen cannot show become `-`; a wavy dash between digits too; a dash read
    /// twice over one stroke is one.
    @Test func cleanupUnifiesDashes() {
        let bar = Stroke(x: [30, 45], y: [12, 12])
        let digits = Stroke(x: [0, 25, 50, 75], y: [0, 24, 0, 24])
        var long = Self.piece([("5", 0, 25), ("—", 30, 45), ("0", 50, 75)], strokes: [0, 1])
        RecognitionCleanup.clean(&long, strokes: [digits, bar], inkHeight: 24)
        #expect(long.page.text == "5-0")
        var wavy = Self.piece([("5", 0, 25), ("~", 30, 45), ("0", 50, 75)], strokes: [0, 1])
        RecognitionCleanup.clean(&wavy, strokes: [digits, bar], inkHeight: 24)
        #expect(wavy.page.text == "5-0")
        var twice = Self.piece([("5", 0, 25), ("-", 30, 40), ("—", 31, 45), ("0", 50, 75)], strokes: [0, 1])
        RecognitionCleanup.clean(&twice, strokes: [digits, bar], inkHeight: 24)
        #expect(twice.page.text == "5-0")
    }
}
