import Geometry
@testable import Ink
import Testing

@Suite struct LineSegmenterTests {
    private let segmenter = LineSegmenter()

    @Test func noInkGivesNoLines() {
        #expect(segmenter.segment([]).isEmpty)
        #expect(segmenter.segment([Stroke(x: [], y: [])]).isEmpty)
    }

    @Test func twoWordsSideBySideStayOneLine() {
        let first = TestInk.word(x: 100, baseline: 500, height: 40, letters: 5)
        let second = TestInk.word(x: TestInk.wordEnd(x: 100, height: 40, letters: 5) + 60, baseline: 502, height: 40, letters: 6)
        #expect(segmenter.segment(first + second) == [Array(0..<11)])
    }

    @Test func aVerticallyStackedWordListBecomesOneLinePerWord() {
        // Lines 2.2 letter heights apart, each word starting at the same x, different lengths.
        var strokes: [Stroke] = []
        var expected: [[Int]] = []
        for (row, letters) in [6, 2, 4, 3].enumerated() {
            let words = TestInk.word(x: 1000, baseline: 2000 + Double(row) * 88, height: 40, letters: letters)
            expected.append(Array(strokes.count..<(strokes.count + words.count)))
            strokes += words
        }
        #expect(segmenter.segment(strokes) == expected)
    }

    @Test func linesComeOutTopToBottomWhateverTheWritingOrder() {
        let lower = TestInk.word(x: 0, baseline: 200, height: 30, letters: 5)
        let upper = TestInk.word(x: 0, baseline: 120, height: 30, letters: 5)
        #expect(segmenter.segment(lower + upper) == [Array(5..<10), Array(0..<5)])
    }

    @Test func aRotatedLineStaysOneLine() {
        let words = TestInk.word(x: 0, baseline: 300, height: 30, letters: 6)
            + TestInk.word(x: 210, baseline: 300, height: 30, letters: 7)
            + TestInk.word(x: 460, baseline: 300, height: 30, letters: 5)
        for degrees in [-8.0, 8.0] {
            let rotated = TestInk.rotated(words, degrees: degrees, about: Point(x: 300, y: 300))
            #expect(segmenter.segment(rotated).count == 1, "\(degrees)°")
        }
    }

    @Test func dotsJoinTheLineOfTheirLetters() {
        let word = TestInk.word(x: 100, baseline: 400, height: 40, letters: 6)
        let dot = Stroke(x: [112], y: [340])
        // Written first (a j-dot before its stem), and delayed to the end of the line.
        #expect(segmenter.segment([dot] + word) == [Array(0...6)])
        #expect(segmenter.segment(word + [dot]) == [Array(0...6)])
        // A dot for the first line added after the second line was written goes to the first line.
        let below = TestInk.word(x: 100, baseline: 490, height: 40, letters: 6)
        #expect(segmenter.segment(word + below + [dot]) == [Array(0..<6) + [12], Array(6..<12)])
    }

    @Test func stackedBarsWrittenAloneAreOneLine() {
        // An `=` and a `≡`: each bar is a line by height alone.
        let top = Stroke(x: [0, 25, 50], y: [0, 2, 1]), middle = Stroke(x: [4, 30, 56], y: [30, 31, 33])
        let bottom = Stroke(x: [-2, 48], y: [60, 61])
        #expect(segmenter.segment([top, middle]) == [[0, 1]])
        #expect(segmenter.segment([top, middle, bottom]) == [[0, 1, 2]])
        // Bars side by side, not over each other, stay lines of their own; bars far below a word
        // are a line of their own, not the word's.
        #expect(segmenter.segment([top, Stroke(x: [80, 130], y: [30, 31])]).count == 2)
        let word = TestInk.word(x: 0, baseline: -200, height: 40, letters: 2)
        #expect(segmenter.segment(word + [top, middle]) == [[0, 1], [2, 3]])
    }

    @Test func aPenTapFarFromTheWritingBelongsToNoLine() {
        let word = TestInk.word(x: 100, baseline: 400, height: 40, letters: 6)
        let tap = Stroke(x: [900, 902], y: [100, 101])          // far right and far above
        #expect(segmenter.segment(word + [tap]) == [Array(0..<6)])
        #expect(segmenter.segment([tap] + word) == [Array(1...6)])
        // With specks kept, the tap is a line of its own, first since it is highest.
        let keeping = LineSegmenter(options: .init(speckRatio: 0))
        #expect(keeping.segment(word + [tap]) == [[6], Array(0..<6)])
        // A speck alone is still ink to read (a lone "."), and a rule under the text is a line.
        #expect(segmenter.segment([tap]) == [[0]])
        let rule = Stroke(x: [100, 400], y: [520, 521])
        #expect(segmenter.segment(word + [rule]) == [Array(0..<6), [6]])
    }

    @Test func aDescenderAndACommaStayOnTheirLine() {
        var strokes = TestInk.word(x: 0, baseline: 100, height: 20, letters: 6)
        strokes.append(Stroke(x: [110, 108, 104], y: [85, 108, 116]))   // a descender stroke from the x-height down
        strokes.append(Stroke(x: [125, 122], y: [99, 107]))             // a comma
        #expect(segmenter.segment(strokes) == [Array(0..<8)])
    }

    /// The synthetic corpus holds multi-line samples whose truth separates lines with "\n".
    @Test(arguments: ["print.jsonl", "script.jsonl"])
    func lineCountsMatchTheCorpusTruth(file: String) throws {
        let samples = try Corpus.samples(file)
        try #require(!samples.isEmpty, "the ink fixtures are missing")
        let matched = samples.filter { segmenter.segment($0.strokes).count == $0.lineCount }
        let multi = samples.filter { $0.lineCount > 1 }
        let multiMatched = multi.filter { segmenter.segment($0.strokes).count == $0.lineCount }
        let rate = Double(matched.count) / Double(samples.count)
        print("line count matches truth in \(file): \(matched.count)/\(samples.count), multi-line \(multiMatched.count)/\(multi.count)")
        #expect(rate >= 0.95)
        #expect(Double(multiMatched.count) >= 0.9 * Double(multi.count))
    }

    /// Single words written by real people must not be split.
    @Test func realWordsAreOneLine() throws {
        let samples = try Corpus.samples("hand-words.jsonl")
        try #require(!samples.isEmpty, "the ink fixtures are missing")
        let single = samples.filter { segmenter.segment($0.strokes).count == 1 }
        print("real words kept on one line: \(single.count)/\(samples.count)")
        #expect(Double(single.count) >= 0.97 * Double(samples.count),
                "split: \(samples.filter { segmenter.segment($0.strokes).count != 1 }.map(\.id))")
    }
}
