#if canImport(Glibc)
import Geometry
import Glibc
#endif
import Testing
@testable import Ink

@Suite struct InkNormalizerTests {
    private let normalizer = InkNormalizer()
    /// 24 px of ink plus 2 × (6 px padding + 0.96 px half pen), rounded up.
    private let defaultHeight = 38

    @Test func noInkGivesNoImages() {
        #expect(normalizer.render([]).isEmpty)
    }

    @Test func inkIsScaledToTheTargetHeightInsideTheMargins() throws {
        let word = TestInk.word(x: 5000, baseline: 8000, height: 300, letters: 7)
        let rendering = try #require(normalizer.render(word).first)
        #expect(rendering.image.height == defaultHeight)
        let ink = try #require(rendering.image.inkBounds(threshold: 128))
        // 24 px from the highest to the lowest pen centre, plus about one pen width.
        #expect((24...27).contains(ink.maxY - ink.minY + 1))
        #expect(ink.minY >= 6 && ink.maxY <= defaultHeight - 7)
        #expect(ink.minX >= 6 && ink.maxX <= rendering.image.width - 7)
    }

    @Test func widthScaleStretchesTheInkAcrossOnly() throws {
        let word = TestInk.word(x: 5000, baseline: 8000, height: 300, letters: 7)
        let plain = try #require(normalizer.render(word).first)
        let wide = try #require(InkNormalizer(options: RenderOptions(widthScale: 1.25)).render(word).first)
        let plainInk = try #require(plain.image.inkBounds(threshold: 128))
        let wideInk = try #require(wide.image.inkBounds(threshold: 128))
        #expect(wide.image.height == plain.image.height)
        #expect(wideInk.maxY - wideInk.minY == plainInk.maxY - plainInk.minY)
        // The pen is not stretched: its width is added once to each span.
        let ratio = Double(wideInk.maxX - wideInk.minX - 2) / Double(plainInk.maxX - plainInk.minX - 2)
        #expect(abs(ratio - 1.25) < 0.03)
        #expect(abs(Double(wide.image.width - plain.image.width) - 0.25 * Double(plainInk.maxX - plainInk.minX - 2)) <= 2)
        // The map back to the board undoes the stretch (a pixel is about 12 board units here).
        let corner = wide.imageToBoard.apply(to: Point(x: Double(wideInk.maxX), y: Double(wideInk.maxY)))
        let back = plain.imageToBoard.apply(to: Point(x: Double(plainInk.maxX), y: Double(plainInk.maxY)))
        #expect(abs(corner.x - back.x) < 30 && abs(corner.y - back.y) < 30)
    }

    /// With `longLineWidthScale`, a line's stretch follows its width: a word gets `widthScale`,
    /// a line of many words the long-line stretch, and one in between a stretch in between.
    @Test func longLinesAreStretchedMoreThanWords() throws {
        let options = RenderOptions(widthScale: 1.2, longLineWidthScale: 1.6, longLineAspect: 4...10)
        let stretch = { (letters: Int) throws -> Double in
            // The word is about 0.56 heights wide per letter (its bars are 1.6 letters high).
            let word = TestInk.word(x: 100, baseline: 2000, height: 100, letters: letters)
            let placement = try #require(InkNormalizer(options: options).layout(line: Array(word.indices), of: word).first)
            let origin = placement.boardToImage.apply(to: Point(x: 0, y: 0))
            let across = placement.boardToImage.apply(to: Point(x: 1, y: 0))
            let down = placement.boardToImage.apply(to: Point(x: 0, y: 1))
            return (across.x - origin.x) / (down.y - origin.y)
        }
        #expect(abs(try stretch(4) - 1.2) < 1e-9)
        #expect(abs(try stretch(30) - 1.6) < 1e-9)
        let middle = try stretch(12)  // 6.75 heights: 0.46 of the way from 4 to 10
        #expect(middle > 1.35 && middle < 1.42)
        // Without a long-line stretch every line gets `widthScale`.
        let plain = InkNormalizer(options: RenderOptions(widthScale: 1.2))
        #expect(plain.widthScale(forAspect: 30) == 1.2)
        #expect(InkNormalizer(options: options).widthScale(forAspect: .nan) == 1.2)
    }

    @Test func aSpeckHighAboveTheLettersDoesNotShrinkThem() throws {
        let word = TestInk.word(x: 0, baseline: 400, height: 40, letters: 6)
        let alone = try #require(normalizer.layout(line: Array(word.indices), of: word).first)
        // A pen tap 2.5 letter heights above the word's top, close enough to join its line.
        let withTap = word + [Stroke(x: [60, 61], y: [260, 261])]
        let placement = try #require(normalizer.layout(line: Array(withTap.indices), of: withTap).first)
        #expect(placement.strokeIndexes == Array(word.indices))
        #expect(placement.boardToImage == alone.boardToImage)
        // An i-dot, under a letter height above the tallest letter, is kept.
        let withDot = word + [Stroke(x: [12], y: [310])]
        let dotted = try #require(normalizer.layout(line: Array(withDot.indices), of: withDot).first)
        #expect(dotted.strokeIndexes.contains(word.count))
        // Kept when asked to keep every speck.
        let keeping = InkNormalizer(options: RenderOptions(outlierRatio: 0))
        #expect(try #require(keeping.layout(line: Array(withTap.indices), of: withTap).first).strokeIndexes.count == withTap.count)
    }

    @Test func otherTargetHeightsAndPens() throws {
        let options = RenderOptions(targetInkHeight: 40, penWidthRatio: 0.1, paddingRatio: 0.5, antialiased: false)
        let rendering = try #require(InkNormalizer(options: options).render(TestInk.word(x: 0, baseline: 100, height: 20, letters: 4)).first)
        #expect(rendering.image.height == Int((40 + 2 * (20 + 2.0)).rounded(.up)))
        #expect(rendering.image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
    }

    @Test func transformsMapImagesBackOntoTheBoard() throws {
        let samples = try Corpus.samples("print.jsonl").prefix(40)
        try #require(!samples.isEmpty, "the ink fixtures are missing")
        for sample in samples {
            for rendering in normalizer.render(sample.strokes) {
                let lineBox = try #require(rendering.strokeIndexes.map { sample.strokes[$0] }.bounds)
                // The two transforms are inverses.
                for corner in [Point(x: lineBox.minX, y: lineBox.minY), Point(x: lineBox.maxX, y: lineBox.maxY)] {
                    let back = rendering.imageToBoard.apply(to: rendering.boardToImage.apply(to: corner))
                    #expect(back.distance(to: corner) < 1e-9 * max(1, abs(corner.x), abs(corner.y)))
                }
                // The ink found in the image, mapped back, covers the strokes' own box (up to the
                // pen's reach) and not much more.
                let ink = try #require(rendering.image.inkBounds())
                let pixels = Rect(x: Double(ink.minX), y: Double(ink.minY),
                                  width: Double(ink.maxX - ink.minX + 1), height: Double(ink.maxY - ink.minY + 1))
                let mapped = rendering.imageToBoard.apply(to: pixels)
                let unitsPerPixel = abs(rendering.imageToBoard.determinant).squareRoot()
                let slack = 3 * unitsPerPixel
                #expect(mapped.insetBy(dx: -slack, dy: -slack).contains(lineBox.insetBy(dx: slack * 0.5, dy: slack * 0.5)),
                        "\(sample.id)")
                #expect(mapped.width < lineBox.width + lineBox.height + 6 * unitsPerPixel, "\(sample.id)")
            }
        }
    }

    /// The rotation inside a board → image transform, in degrees.
    private func rotationDegrees(_ transform: AffineTransform) -> Double {
        atan2(transform.b, transform.a) * 180 / .pi
    }

    @Test func aSyntheticSlopeIsLevelled() throws {
        let word = TestInk.word(x: 0, baseline: 0, height: 50, letters: 12)
        for degrees in [-12.0, -5, 0, 7] {
            let sloped = TestInk.rotated(word, degrees: degrees, about: .zero)
            let centred = sloped.map { $0.applying(AffineTransform(translationX: 1, y: 2)) }
            let angle = BaselineEstimator.angle(of: centred, letterHeight: 50, maxAngle: 15 * .pi / 180)
            #expect(abs(angle * 180 / .pi - degrees) < 0.5, "\(degrees)°")
            let rendering = try #require(normalizer.render(sloped).first)
            #expect(abs(rotationDegrees(rendering.boardToImage) + degrees) < 0.5, "\(degrees)°")
        }
        // Beyond the clamp, the correction stops at 15°.
        let steep = TestInk.rotated(word, degrees: 25, about: .zero)
        #expect(abs(BaselineEstimator.angle(of: steep, letterHeight: 50, maxAngle: 15 * .pi / 180) * 180 / .pi) <= 15)
    }

    @Test func rotationOfARealLineIsRecovered() throws {
        // Whatever slope the writer left, rotating the ink by a further 10° must change the
        // estimate by 10°.
        let samples = try Corpus.samples("print.jsonl").filter { $0.lineCount == 1 && $0.text.count >= 12 }
        try #require(samples.count >= 10, "the ink fixtures are missing")
        var errors: [Double] = []
        for sample in samples.prefix(30) {
            let letterHeight = try #require(normalizer.typicalStrokeHeight(of: sample.strokes, indexes: Array(sample.strokes.indices)))
            let centre = try #require(sample.strokes.bounds).center
            let maxAngle = 15 * Double.pi / 180
            let before = BaselineEstimator.angle(of: sample.strokes, letterHeight: letterHeight, maxAngle: maxAngle)
            let turned = TestInk.rotated(sample.strokes, degrees: 10, about: centre)
            let after = BaselineEstimator.angle(of: turned, letterHeight: letterHeight, maxAngle: maxAngle)
            guard abs(before * 180 / .pi) < 4 else { continue }   // keep 10° more inside the ±15° clamp
            errors.append(abs((after - before) * 180 / .pi - 10))
        }
        try #require(errors.count >= 10)
        errors.sort()
        #expect(errors[errors.count / 2] < 0.5, "median error \(errors[errors.count / 2])°")
        #expect(errors[errors.count * 9 / 10] < 2, "90th percentile error \(errors[errors.count * 9 / 10])°")
    }

    @Test func flatInkDoesNotBlowUp() throws {
        let options = RenderOptions()
        let widest = { (strokes: Int) in
            Int(((options.flatAspectBase + options.flatAspectPerStroke * Double(strokes)) * 24 + 2 * options.margin).rounded(.up))
        }
        // A horizontal line, in tablet units (alone, it is drawn as a mark: next test).
        let rule = try #require(normalizer.render([Stroke(x: [1000, 41000], y: [5000, 5000])]).first)
        #expect(rule.image.height == defaultHeight)
        #expect(rule.image.width <= widest(1))
        #expect(rule.image.inkPixelCount() > 20)
        // Two of them, far apart in one line: flat ink of two strokes.
        let rules = normalizer.render([Stroke(x: [1000, 41000], y: [5000, 5000]), Stroke(x: [50000, 90000], y: [5000, 5000])])
        #expect(rules.count == 1)
        #expect(try #require(rules.first).image.width <= widest(2))
        #expect(try #require(rules.first).image.inkPixelCount() > 100)
        // A row of five dots.
        let dots = (0..<5).map { Stroke(x: [Double($0) * 3000], y: [100]) }
        let row = normalizer.render(dots)
        #expect(row.count == 1)
        #expect(try #require(row.first).image.width <= widest(5))
        // A single dot: a small square image with a dark centre.
        let single = try #require(normalizer.render([Stroke(x: [123.4], y: [567.8])]).first)
        #expect(single.image.width == defaultHeight && single.image.height == defaultHeight)
        #expect(single.image.pixel(x: defaultHeight / 2, y: defaultHeight / 2) ?? 255 < 128)
        #expect(single.image.inkPixelCount() < 10)
        #expect(single.imageToBoard.apply(to: Point(x: 19, y: 19)).distance(to: Point(x: 123.4, y: 567.8)) < 1e-3)
    }

    @Test func aLoneDashIsDrawnAsAMark() throws {
        let options = RenderOptions()
        let target = Int(options.targetInkHeight)
        // A dash written alone, 50 units wide and 4 high, a little wavy: one target height
        // wide, in the middle rows, not a rule as tall as the line and twelve times as wide.
        let dash = Stroke(x: [0, 10, 20, 30, 40, 50], y: [0, 2, 4, 3, 1, 2])
        let mark = try #require(normalizer.render([dash]).first).image
        let box = try #require(mark.inkBounds(threshold: 128))
        #expect(box.maxX - box.minX <= target + 3)
        #expect(box.maxY - box.minY <= 6)
        #expect(abs((box.minY + box.maxY) / 2 - defaultHeight / 2) <= 2)
        // A cursive word of one stroke is as flat, but its path goes up and down: drawn as text.
        let word = Stroke(x: (0...40).map { Double($0) * 10 }, y: (0...40).map { $0 % 2 == 0 ? 0 : 60 })
        let text = try #require(normalizer.render([word]).first).image
        let textBox = try #require(text.inkBounds(threshold: 128))
        #expect(textBox.maxY - textBox.minY >= target - 3)
        // The dash beside other ink is part of what is written there, scaled to it: two dashes,
        // one below and to the right of the other, are two lines, each drawn as a rule.
        let bars = [dash, Stroke(x: [100, 150], y: [30, 31])]
        let dashes = normalizer.render(bars)
        #expect(!dashes.isEmpty)
        #expect(dashes.allSatisfy { rendering in
            rendering.image.inkBounds(threshold: 128).map { $0.maxX - $0.minX > 2 * target } ?? false
        })
    }

    @Test func anEqualsSignWrittenAloneIsDrawnAsOneGlyph() throws {
        // Its bars, 50 units wide and 30 apart, in one image with its proportions: not two lines.
        let bars = [Stroke(x: [0, 25, 50], y: [0, 2, 1]), Stroke(x: [2, 30, 52], y: [30, 31, 33])]
        let renderings = normalizer.render(bars)
        #expect(renderings.count == 1)
        let box = try #require(renderings.first?.image.inkBounds(threshold: 128))
        let width = box.maxX - box.minX, height = box.maxY - box.minY
        #expect(height >= Int(RenderOptions().targetInkHeight) - 3)
        #expect(width > height && width < 2 * height)
    }

    @Test func aRuleUnderTextIsScaledLikeTheText() throws {
        let text = TestInk.word(x: 0, baseline: 1000, height: 100, letters: 8)
        let rule = Stroke(x: [0, 3000], y: [1250, 1250])
        let renderings = normalizer.render(text + [rule])
        #expect(renderings.count == 2)
        let ruleImage = try #require(renderings.last).image
        // Treated as at least half a typical stroke (100 units) high: 24 px per 50 units.
        #expect(ruleImage.width <= Int((3000 * 24 / 50 + 2 * RenderOptions().margin).rounded(.up)))
    }

    @Test func longLinesAreSplitAtWordGaps() throws {
        var strokes: [Stroke] = []
        var wordOf: [Int] = []
        var x = 0.0
        for word in 0..<12 {
            let letters = 3 + word % 4
            let ink = TestInk.word(x: x, baseline: 500, height: 40, letters: letters)
            strokes += ink
            wordOf += Array(repeating: word, count: ink.count)
            x = TestInk.wordEnd(x: x, height: 40, letters: letters) + 40 + Double(word % 3) * 10
        }
        let options = RenderOptions(maxImageWidth: 300)
        let renderings = InkNormalizer(options: options).render(strokes)
        #expect(renderings.count > 2)
        #expect(renderings.allSatisfy { $0.image.width <= 300 && $0.image.height == defaultHeight })
        // Every stroke in exactly one image, words never cut, pieces from left to right.
        #expect(renderings.flatMap(\.strokeIndexes).sorted() == Array(strokes.indices))
        for rendering in renderings {
            let words = Set(rendering.strokeIndexes.map { wordOf[$0] })
            let counts = words.map { word in wordOf.filter { $0 == word }.count }
            #expect(rendering.strokeIndexes.count == counts.reduce(0, +))
        }
        let lefts = renderings.map { $0.imageToBoard.apply(to: .zero).x }
        #expect(lefts == lefts.sorted())
        // All pieces share the line's scale.
        let scales = renderings.map { $0.boardToImage.determinant }
        #expect(scales.allSatisfy { abs($0 - scales[0]) < 1e-12 * abs(scales[0]) })
    }

    @Test func aWordWiderThanTheLimitIsScaledDownToFit() throws {
        let scribble = Stroke(points: (0...400).map { Point(x: Double($0) * 10, y: 100 + 50 * sin(Double($0) / 3)) })
        let renderings = InkNormalizer(options: RenderOptions(maxImageWidth: 200)).render([scribble])
        #expect(renderings.count == 1)
        #expect(try #require(renderings.first).image.width <= 200)
    }

    @Test func slantCorrectionIsOptional() throws {
        let upright = TestInk.word(x: 0, baseline: 0, height: 60, letters: 9)
        let slanted = upright.map { $0.applying(AffineTransform(shearX: 0.35)) }   // x += 0.35·y: leaning right as y grows up
        #expect(abs(SlantEstimator.shear(of: upright, maxAngle: .pi / 4)) < 0.02)
        #expect(abs(SlantEstimator.shear(of: slanted, maxAngle: .pi / 4) - 0.35) < 0.02)
        let corrected = try #require(InkNormalizer(options: RenderOptions(correctsSlant: true)).render(slanted).first)
        let plain = try #require(normalizer.render(slanted).first)
        // Undoing the shear makes the word narrower.
        #expect(corrected.image.width < plain.image.width)
    }

    @Test func everyCorpusSampleRendersWithinLimits() throws {
        for file in ["print.jsonl", "hand-words.jsonl", "hand-digits.jsonl"] {
            for sample in try Corpus.samples(file) {
                let renderings = normalizer.render(sample.strokes)
                #expect(!renderings.isEmpty, "\(sample.id)")
                #expect(renderings.flatMap(\.strokeIndexes).sorted() == Array(sample.strokes.indices), "\(sample.id)")
                for rendering in renderings {
                    #expect(rendering.image.height == defaultHeight && rendering.image.width <= 2_400, "\(sample.id)")
                    #expect(rendering.image.inkPixelCount() > 0, "\(sample.id)")
                }
            }
        }
    }
}
