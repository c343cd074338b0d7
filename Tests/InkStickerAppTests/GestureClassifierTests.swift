import Foundation
import GestureSamples
import Ink
import JSONKit
import Testing
import TextLayout

/// The gesture classifier's two promises, on the repository's own ink (no corpus outside it):
/// writing over a field of other text is never taken for a gesture, and generated gestures are
/// taken as the gesture drawn, deleting the words it was drawn over. `bench/gestures.sh` runs the
/// same measures on every sample of the shared corpora and on 10,000 generated gestures.
@Suite struct GestureClassifierTests {
    static let evaluation: GestureEvaluation = {
        GestureEvaluation(measurer: TextMeasurer(library: try! FontLibrary()))
    }()

    /// Every sample of the fixture files, in file order.
    static func fixtureSamples() throws -> [(id: String, text: String, strokes: [Stroke])] {
        let root = TestPaths.root + "/Tests/Fixtures"
        var samples: [(String, String, [Stroke])] = []
        let decoder = InkDecoder(limits: InkLimits(maxStrokes: 100_000, maxPointsPerStroke: 1_000_000, maxTotalPoints: 10_000_000))
        for directory in ["ink", "hangul"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: root + "/" + directory).filter { $0.hasSuffix(".jsonl") }.sorted()
            for file in files {
                let text = try String(contentsOfFile: root + "/" + directory + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") where !line.isEmpty {
                    let value = try JSONReader.parse(Array(line.utf8))
                    guard let id = value["id"]?.stringValue, let label = value["text"]?.stringValue, let ink = value["strokes"] else { continue }
                    samples.append((id, label, try decoder.decode(ink, at: .root.appending("strokes"))))
                }
            }
        }
        return samples
    }

    @Test func writingOverAFieldIsNeverAGesture() throws {
        let samples = try Self.fixtureSamples()
        #expect(samples.count > 600)
        // A seeded subset of 500, drawn over fields of other text at seeded offsets.
        var pick = SeededRandom(seed: 20_261_206)
        let subset = samples.shuffled(using: &pick).prefix(500)
        var random = SeededRandom(seed: 7)
        var gestures: [String] = []
        for sample in subset {
            if let gesture = try Self.evaluation.classifyWriting(sample.strokes, text: sample.text, random: &random) {
                gestures.append("\(sample.id) \"\(sample.text)\": \(gesture)")
            }
        }
        #expect(gestures.isEmpty, "writing taken for a gesture: \(gestures)")
    }

    @Test func generatedGesturesAreRecognisedWithTheirWords() throws {
        let (scratch, strike) = try Self.evaluation.generatedGestures(count: 1_000, seed: 42)
        #expect(scratch.samples == 500 && strike.samples == 500)
        #expect(scratch.rate >= 0.98, "\(scratch): \(scratch.failures.prefix(10))")
        #expect(strike.rate >= 0.98, "\(strike): \(strike.failures.prefix(10))")
    }

    /// Cursive strokes that go back and forth a little as they move on are writing, whatever text
    /// they cross: loops ("eeee"), arches ("mmmm", "minimum"), a "w" chain, and a retraced "0".
    @Test func cursiveThatMovesOnIsWriting() throws {
        let field = try GestureField(text: "dolls and teddy bears", center: .init(x: 500, y: 300), measurer: Self.evaluation.measurer)
        let box = try #require(field.textBounds)
        let h = field.lineHeight
        func stroke(_ f: (Double) -> (Double, Double), steps: Int = 400) -> Stroke {
            let points = (0...steps).map { f(Double($0) / Double(steps)) }
            return Stroke(x: points.map { box.minX + $0.0 }, y: points.map { box.minY + $0.1 })
        }
        let width = box.width
        let shapes: [String: Stroke] = [
            // Loops of 1/8 of the width moving right.
            "eeee": stroke { t in (t * width + 0.06 * width * sin(t * 16 * .pi), 0.5 * h - 0.2 * h * cos(t * 16 * .pi)) },
            "mmmm": stroke { t in (t * width, 0.8 * h - 0.5 * h * abs(sin(t * 12 * .pi))) },
            "wwww": stroke { t in (t * width, 0.3 * h + 0.5 * h * abs(sin(t * 10 * .pi))) },
            // An "0" gone round three times over "teddy": it turns back in x as a scratch-out does,
            // but it is taller than wide and moves as much up and down.
            "000": stroke { t in
                let word = field.words[2].bounds
                return (word.center.x - box.minX + 0.3 * h * sin(t * 6 * .pi), 0.5 * h - 0.5 * h * cos(t * 6 * .pi))
            },
        ]
        for (name, ink) in shapes {
            #expect(GestureClassifier().classify([ink], over: field.glyphs) == .writing, "\(name)")
        }
        // A zig-zag over the same words is a scratch-out; the same ink with a second stroke is writing.
        var synthesizer = GestureSynthesizer(random: SeededRandom(seed: 3))
        let scratch = synthesizer.scratchOut(over: field.words, range: 1..<3, reversals: 6, loose: false, slantDegrees: 0)
        #expect(GestureClassifier().classify([scratch], over: field.glyphs) == GestureClassification(gesture: .scratchOut, words: [1, 2]))
        #expect(GestureClassifier().classify([scratch, shapes["mmmm"]!], over: field.glyphs) == .writing)
        // Over no text (above the field's words) it is writing too.
        let above = scratch.applying(AffineTransform(translationX: 0, y: -2 * h))
        #expect(GestureClassifier().classify([above], over: field.glyphs) == .writing)
        // An underline is no strike-through; a line through the middle is.
        let words = field.words[3].bounds
        let line = { (y: Double) in Stroke(x: [words.minX - 4, words.center.x, words.maxX + 4], y: [y, y, y]) }
        #expect(GestureClassifier().classify([line(words.minY + 0.95 * words.height)], over: field.glyphs) == .writing)
        #expect(GestureClassifier().classify([line(words.minY + 0.55 * words.height)], over: field.glyphs)
                == GestureClassification(gesture: .strikeThrough, words: [3]))
        // A client that keeps only a line's two ends (decimated ink) strikes through all the same;
        // two points that are short, or under the word, stay writing.
        let y = words.minY + 0.55 * words.height
        #expect(GestureClassifier().classify([Stroke(x: [words.minX - 4, words.maxX + 4], y: [y, y + 1])], over: field.glyphs)
                == GestureClassification(gesture: .strikeThrough, words: [3]))
        #expect(GestureClassifier().classify([Stroke(x: [words.minX, words.minX + 0.3 * h], y: [y, y])], over: field.glyphs) == .writing)
        #expect(GestureClassifier().classify([Stroke(x: [words.minX - 4, words.maxX + 4], y: [words.maxY - 1, words.maxY - 1])],
                                             over: field.glyphs) == .writing)
        // One point is never a gesture.
        #expect(GestureClassifier().classify([Stroke(x: [words.center.x], y: [y])], over: field.glyphs) == .writing)
    }

    /// A zig-zag over `box`: level passes from its left to its right edge and back, drifting from
    /// `top` to `bottom` (board coordinates).
    static func zigzag(minX: Double, maxX: Double, top: Double, bottom: Double, reversals: Int) -> Stroke {
        var xs: [Double] = [], ys: [Double] = []
        for index in 0...reversals {
            let (x0, x1) = index % 2 == 0 ? (minX, maxX) : (maxX, minX)
            for step in 0..<10 {
                let f = (Double(index) + Double(step) / 10) / Double(reversals + 1)
                xs.append(x0 + (x1 - x0) * Double(step) / 10)
                ys.append(top + (bottom - top) * f)
            }
        }
        return Stroke(x: xs, y: ys)
    }

    /// A scratch-out over the first line of two that runs a little past that line's glyph box (as
    /// loose hands do) deletes that line's words only; one over both lines deletes both.
    @Test func aScratchOutOverOneLineKeepsTheNextLinesWords() throws {
        let field = try GestureField(text: "dolls and\nteddy bears", center: .init(x: 400, y: 300), measurer: Self.evaluation.measurer)
        let words = field.words
        #expect(words.map(\.line) == [0, 0, 1, 1])
        let first = words[0].bounds.union(words[1].bounds), second = words[2].bounds.union(words[3].bounds)
        let h = first.height
        let classifier = GestureClassifier()
        for reach in [0.9, 1.0, 1.1, 1.2, 1.3] {
            let scratch = Self.zigzag(minX: first.minX, maxX: first.maxX, top: first.minY, bottom: first.minY + reach * h, reversals: 6)
            #expect(classifier.classify([scratch], over: field.glyphs) == GestureClassification(gesture: .scratchOut, words: [0, 1]),
                    "reaching \(reach) lines down")
            // The same on the second line, running up into the first.
            let up = Self.zigzag(minX: second.minX, maxX: second.maxX, top: second.maxY - reach * h, bottom: second.maxY, reversals: 6)
            #expect(classifier.classify([up], over: field.glyphs) == GestureClassification(gesture: .scratchOut, words: [2, 3]),
                    "reaching \(reach) lines up")
        }
        let both = Self.zigzag(minX: first.minX, maxX: first.maxX, top: first.minY + 0.1 * h, bottom: second.maxY - 0.1 * h, reversals: 8)
        #expect(classifier.classify([both], over: field.glyphs) == GestureClassification(gesture: .scratchOut, words: [0, 1, 2, 3]))
    }
}
