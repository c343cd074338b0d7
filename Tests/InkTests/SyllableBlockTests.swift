import Geometry
@testable import Ink
import Testing

/// Hangul: a syllable's final consonant sits under its initial and vowel, which stroke by
/// stroke looks like a new line.
@Suite struct SyllableBlockTests {
    private let blocks = LineSegmenter(options: LineSegmenter.Options(groupsSyllableBlocks: true))

    /// "각" drawn `size` high with its top-left corner at (x, top), in writing order: the
    /// initial ㄱ (bar, then down), the vowel ㅏ (stem, then its dash), the final ㄱ underneath.
    /// No pen draws a stem exactly upright: this one leans a little, so its dash overlaps it.
    private func gak(x: Double, top: Double, size: Double) -> [Stroke] {
        func line(_ points: [(Double, Double)]) -> Stroke {
            Stroke(points: points.map { Point(x: x + $0.0 * size, y: top + $0.1 * size) })
        }
        return [
            line([(0.05, 0.1), (0.45, 0.1), (0.4, 0.5)]),
            line([(0.68, 0.0), (0.74, 0.6)]),
            line([(0.72, 0.3), (0.9, 0.3)]),
            line([(0.1, 0.7), (0.8, 0.7), (0.75, 1.0)]),
        ]
    }

    private func row(x: Double, top: Double, size: Double, syllables: Int) -> [Stroke] {
        (0..<syllables).flatMap { gak(x: x + Double($0) * 1.1 * size, top: top, size: size) }
    }

    @Test func aRowOfSyllablesWithFinalConsonantsIsOneLine() {
        let ink = row(x: 100, top: 100, size: 60, syllables: 4)
        #expect(blocks.segment(ink) == [Array(ink.indices)])
        // Stroke by stroke, the finals make a line of their own.
        #expect(LineSegmenter().segment(ink).count > 1)
    }

    @Test func twoRowsAreTwoLines() {
        for pitch in [1.3, 1.6, 2.0] {
            let first = row(x: 100, top: 100, size: 60, syllables: 3)
            let second = row(x: 100, top: 100 + pitch * 60, size: 60, syllables: 4)
            let ink = first + second
            #expect(blocks.segment(ink) == [Array(first.indices), Array(first.count..<ink.count)], "pitch \(pitch)")
        }
    }

    /// The blocks `limits` make of `ink`, as lists of stroke indexes.
    private func blocks(of ink: [Stroke], _ limits: SyllableBlockLimits = SyllableBlockLimits()) -> [[Int]] {
        SyllableBlocks(limits: limits, dotRatio: 0.5)
            .group(Array(ink.indices), boxes: ink.map { $0.bounds ?? Rect(x: 0, y: 0, width: 0, height: 0) })
            .map(\.strokes)
    }

    /// The limits before hanging parts and the narrower reach: four blocks back, any width.
    private let earlierLimits = SyllableBlockLimits(widthRatio: .infinity, lookback: 4, hangRatio: 0)

    @Test func aFinalWrittenFarDownJoinsItsSyllable() {
        // Three syllables; the middle one's final is written 0.9 of the size lower than usual,
        // its top far under the initial and the vowel, as quick hands write it.
        var ink = row(x: 100, top: 100, size: 60, syllables: 3)
        ink[7] = ink[7].applying(AffineTransform(translationX: 0, y: 0.9 * 60))
        #expect(blocks(of: ink).contains([4, 5, 6, 7]))
        #expect(blocks(of: ink, earlierLimits).contains([7]))
        // Written that far down with nothing after it coming back up, it is not a final.
        let last = Array(ink[0..<8])
        #expect(blocks(of: last).contains([4, 5, 6, 7]))
        let lower = Array(ink[0..<8]) + row(x: 170, top: 100 + 1.5 * 60, size: 60, syllables: 1)
        #expect(!blocks(of: lower).contains { $0.contains(7) && $0.contains(4) })
    }

    @Test func theNextRowsFirstStrokeDoesNotReachBackToTheRowAbove() {
        // Two syllables, then a row written right under them (1.1 sizes from top to top): the
        // next row's first stroke lies under the first syllable, three blocks back, close
        // enough to join it.
        let first = row(x: 100, top: 100, size: 60, syllables: 2)
        let second = row(x: 100, top: 100 + 1.1 * 60, size: 60, syllables: 2)
        let ink = first + second
        let rowOf = { (stroke: Int) in stroke < first.count ? 0 : 1 }
        #expect(blocks(of: ink).allSatisfy { Set($0.map(rowOf)).count == 1 })
        #expect(!blocks(of: ink, earlierLimits).allSatisfy { Set($0.map(rowOf)).count == 1 })
    }

    @Test func latinTextIsSplitAsBefore() {
        // Words side by side and a stacked word list, as LineSegmenterTests has them.
        let first = TestInk.word(x: 100, baseline: 500, height: 40, letters: 5)
        let second = TestInk.word(x: TestInk.wordEnd(x: 100, height: 40, letters: 5) + 60, baseline: 502, height: 40, letters: 6)
        #expect(blocks.segment(first + second) == [Array(0..<11)])
        var strokes: [Stroke] = []
        var expected: [[Int]] = []
        for (row, letters) in [6, 2, 4, 3].enumerated() {
            let words = TestInk.word(x: 1000, baseline: 2000 + Double(row) * 88, height: 40, letters: letters)
            expected.append(Array(strokes.count..<(strokes.count + words.count)))
            strokes += words
        }
        #expect(blocks.segment(strokes) == expected)
    }

    /// The committed evaluation ink (fonts never used to choose anything): nearly every
    /// one-line sample comes out as one line with blocks, most do not without.
    @Test func theHangulEvaluationInkKeepsItsLines() throws {
        let samples = try Corpus.samples("hangul-words.jsonl", folder: "hangul")
            + Corpus.samples("hangul-lines.jsonl", folder: "hangul")
        try #require(samples.count >= 450)
        let byBlocks = samples.filter { blocks.segment($0.strokes).count == $0.lineCount }.count
        let byStrokes = samples.filter { LineSegmenter().segment($0.strokes).count == $0.lineCount }.count
        #expect(Double(byBlocks) >= 0.97 * Double(samples.count), "\(byBlocks) of \(samples.count)")
        #expect(Double(byStrokes) < 0.5 * Double(samples.count), "\(byStrokes) of \(samples.count)")
    }
}
