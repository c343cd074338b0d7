import Geometry
import Ink
import TextLayout
import ToolSupport

/// The two measures of the gesture classifier: writing drawn over a field must stay writing, and
/// generated gestures must be taken as the right gesture with the right words.
public struct GestureEvaluation: Sendable {
    /// Counts of one run.
    public struct Counts: Sendable, CustomStringConvertible {
        public var samples = 0
        public var wrong = 0
        /// Ids or descriptions of the failures (the first 50).
        public var failures: [String] = []

        public var rate: Double { samples == 0 ? 0 : Double(samples - wrong) / Double(samples) }

        public var description: String {
            "\(samples - wrong) / \(samples) right (\(String(format: "%.2f", 100 * rate)) %), \(wrong) wrong"
        }

        mutating func record(_ ok: Bool, _ what: @autoclosure () -> String) {
            samples += 1
            if !ok {
                wrong += 1
                if failures.count < 50 { failures.append(what()) }
            }
        }
    }

    public let measurer: TextMeasurer
    public let classifier: GestureClassifier

    public init(measurer: TextMeasurer, classifier: GestureClassifier = GestureClassifier()) {
        self.measurer = measurer
        self.classifier = classifier
    }

    /// Draws `strokes` (writing of `text`) over a field of other text and classifies them: the
    /// ink is scaled to the room its text takes at the field's font size (0.55 em per character
    /// wide, one line high, whichever is smaller, as people write at about the size of the text
    /// around), centred on the field's text with a seeded offset of up to a quarter line up or
    /// down, and the field's text is long enough to lie under all of it. Nil when writing.
    ///
    /// - Parameter inkScale: the writing this many times the size of the field's text (1: the same size).
    public func classifyWriting<G: RandomNumberGenerator>(_ strokes: [Stroke], text: String, inkScale: Double = 1,
                                                          random: inout G) throws -> InkGesture? {
        guard let bounds = strokes.bounds, bounds.width > 0 || bounds.height > 0 else { return nil }
        let fontSize = 28.0
        let room = (width: Double(max(1, text.count)) * 0.55 * fontSize, height: 1.16 * fontSize)
        let scale = inkScale * min(bounds.width > 0 ? room.width / bounds.width : .infinity,
                                   bounds.height > 0 ? room.height / bounds.height : .infinity)
        let inkWidth = bounds.width * scale
        var words: [String] = []
        var field: GestureField
        let centre = Point(x: 1000, y: 500)
        repeat {
            words.append(GestureField.vocabulary.randomElement(using: &random)!)
            field = try GestureField(text: words.joined(separator: " "), center: centre, fontSize: fontSize, measurer: measurer)
        } while (field.textBounds?.width ?? 0) < inkWidth * 1.2 + fontSize || words.count < 3
        let target = field.textBounds?.center ?? centre
        let dy = Double.random(in: -0.25...0.25, using: &random) * field.lineHeight
        let dx = Double.random(in: -0.1...0.1, using: &random) * fontSize
        let transform = AffineTransform(translationX: -bounds.center.x, y: -bounds.center.y)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(AffineTransform(translationX: target.x + dx, y: target.y + dy))
        let placed = strokes.map { $0.applying(transform) }
        return classifier.classify(placed, over: field.glyphs).gesture
    }

    /// Generates `count` gestures from `seed` (half scratch-outs, half strike-throughs) and counts
    /// how many are taken as the gesture drawn with exactly the words it was drawn over.
    public func generatedGestures(count: Int, seed: UInt64) throws -> (scratchOut: Counts, strikeThrough: Counts) {
        var random = SeededRandom(seed: seed)
        var synthesizer = GestureSynthesizer(random: SeededRandom(seed: seed ^ 0x5EED))
        var scratch = Counts(), strike = Counts()
        for index in 0..<count {
            let wordCount = Int.random(in: 6...9, using: &random)
            let text = (0..<wordCount).map { _ in GestureField.vocabulary.randomElement(using: &random)! }.joined(separator: " ")
            let field = try GestureField(text: text, center: Point(x: 600, y: 400), measurer: measurer)
            let slant = Double.random(in: -15...15, using: &random)
            if index % 2 == 0 {
                let run = Int.random(in: 1...5, using: &random)
                let first = Int.random(in: 0...(field.words.count - run), using: &random)
                let reversals = Int.random(in: 3...20, using: &random)
                let loose = Bool.random(using: &random)
                let stroke = synthesizer.scratchOut(over: field.words, range: first..<(first + run), reversals: reversals,
                                                    loose: loose, slantDegrees: slant)
                let result = classifier.classify([stroke], over: field.glyphs)
                let expected = Array(first..<(first + run))
                scratch.record(result.gesture == .scratchOut && result.words == expected,
                               "scratch #\(index) words \(expected) reversals \(reversals) \(loose ? "loose" : "tight") slant \(Int(slant)): \(result.gesture?.rawValue ?? "writing") \(result.words)")
            } else {
                let first = Int.random(in: 0..<field.words.count, using: &random)
                let wavy = Bool.random(using: &random)
                let (stroke, words) = synthesizer.strikeThrough(over: field.words, firstWord: first,
                                                                maxWords: Int.random(in: 1...5, using: &random),
                                                                wavy: wavy, slantDegrees: slant)
                let result = classifier.classify([stroke], over: field.glyphs)
                strike.record(result.gesture == .strikeThrough && result.words == Array(words),
                              "strike #\(index) words \(Array(words)) \(wavy ? "wavy" : "straight") slant \(Int(slant)): \(result.gesture?.rawValue ?? "writing") \(result.words)")
            }
        }
        return (scratch, strike)
    }
}

/// The seeded generator of every run (SplitMix64), so each run draws the same set.
public typealias SeededRandom = SplitMix64
