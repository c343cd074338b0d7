import Foundation
import Ink
import Testing
@testable import OCR

/// The pipeline's imaging on its own (what `inkrender` draws training lines with): repair,
/// lines, the lone-glyph rule and the line mode per hint, without Tesseract.
@Suite struct RecognitionImagingTests {
    static func strokes(_ sample: CorpusSample) -> [Stroke] {
        sample.strokes.map { points in Stroke(x: points.map(\.x), y: points.map(\.y)) }
    }

    /// A two-line note: two lines, each one image as tall as the padded ink height, read in the
    /// text mode under no hint and in the numeric mode under a numeric hint.
    @Test func twoLinesAndTheModePerHint() throws {
        guard let sample = try Corpus.samples("print.jsonl").first(where: {
            $0.text.split(separator: "\n").count == 2
        }) else { throw CorpusError.noSample("a two-line sample") }
        let imaging = RecognitionImaging()
        let text = imaging.prepare(Self.strokes(sample), hint: .text)
        #expect(text.lines.lines.count == 2)
        #expect(!text.isSingleGlyph)
        #expect(text.mode == imaging.options.textLineMode)
        #expect(imaging.prepare(Self.strokes(sample), hint: .number).mode == imaging.options.numericLineMode)
        let variant = imaging.options.render
        for line in text.lines.lines.indices {
            let images = imaging.render(text, line: line, variant: variant)
            #expect(images.count == 1)
            // Ink height plus the padding on both sides, at most a pen width and rounding more.
            let expected = variant.inkHeight * (1 + 2 * variant.paddingRatio)
            #expect(abs(Double(images[0].image.height) - expected) <= variant.inkHeight * variant.penWidthRatio + 2)
        }
    }

    /// A "5" drawn as a hook and a separate bar: one glyph, one line holding both strokes, read
    /// as a single character.
    @Test func loneGlyphIsOneLineOfOneCharacter() {
        let hook = Stroke(x: [0, 0, 8, 10, 8, 0], y: [0, 10, 8, 14, 20, 20])
        let bar = Stroke(x: [1, 10], y: [-1, -1])
        let ink = RecognitionImaging().prepare([hook, bar], hint: .digits)
        #expect(ink.isSingleGlyph)
        #expect(ink.lines.lines == [[0, 1]])
        #expect(ink.mode == .singleCharacter)
    }

    /// A stroke with an untracked pen jump is cut before imaging, and the pieces remember the
    /// request stroke they came from.
    @Test func penJumpsAreCutBeforeImaging() {
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<40 { xs.append(Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        for i in 0..<40 { xs.append(300 + Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        let ink = RecognitionImaging().prepare([Stroke(x: xs, y: ys)], hint: .text)
        #expect(ink.repaired)
        #expect(ink.strokes.count == 2)
        #expect(ink.origin == [0, 0])
    }

    /// Text lines are drawn `textWidthScale` times wider (long ones up to `longTextWidthScale`),
    /// lines under the `number` hint `numericWidthScale` times, lines under the `digits` hint and
    /// ink grouped by syllable blocks (Hangul) keep their proportions. (A word's tall letters
    /// would be squeezed under the `number` hint, so that is off here.)
    @Test func textAndNumbersAreStretchedEachTheirOwnWayAndHangulIsNot() throws {
        let strokes = Self.strokes(try Corpus.sample("print.jsonl", text: "email Sarah"))
        func width(_ hint: CharacterHint, _ imaging: RecognitionImaging) throws -> Int {
            let ink = imaging.prepare(strokes, hint: hint)
            return try #require(imaging.render(ink, line: 0, variant: imaging.options.render).first).image.width
        }
        let render = RecognitionOptions().render
        let margin = 2 * render.inkHeight * (render.paddingRatio + render.penWidthRatio / 2)
        func ratio(_ a: Int, _ b: Int) -> Double { (Double(a) - margin) / (Double(b) - margin) }
        let plain = RecognitionImaging(options: RecognitionOptions(textWidthScale: 1, longTextWidthScale: nil, numericWidthScale: 1, squeezesTallMarks: false))
        let unstretched = try width(.text, plain)
        #expect(try width(.number, plain) == unstretched)
        let stretched = RecognitionImaging(options: RecognitionOptions(textWidthScale: 1.25, longTextWidthScale: nil, numericWidthScale: 1.1, squeezesTallMarks: false))
        #expect(abs(ratio(try width(.text, stretched), unstretched) - 1.25) < 0.03)
        #expect(abs(ratio(try width(.number, stretched), unstretched) - 1.1) < 0.03)
        #expect(try width(.digits, stretched) == unstretched)
        // A long-line stretch widens text lines (this one is over 4 heights wide), never numbers.
        let long = RecognitionImaging(options: RecognitionOptions(textWidthScale: 1.25, longTextWidthScale: 1.8, numericWidthScale: 1.1, squeezesTallMarks: false))
        #expect(try width(.text, long) > width(.text, stretched))
        #expect(try width(.number, long) == width(.number, stretched))
        // Syllable blocks: never stretched, whatever the options say.
        var blocks = LineImager()
        blocks.options.segmentation.groupsSyllableBlocks = true
        #expect(try width(.text, RecognitionImaging(imager: blocks, options: long.options)) == unstretched)
        #expect(try width(.number, RecognitionImaging(imager: blocks, options: long.options)) == unstretched)
    }

    /// The first line image of a printed "email Sarah" drawn by `imager`, its ink split by
    /// syllable blocks or not.
    static func firstLineImage(_ imager: LineImager, blocks: Bool) throws -> GrayImage {
        let strokes = Self.strokes(try Corpus.sample("print.jsonl", text: "email Sarah"))
        var imager = imager
        imager.options.segmentation.groupsSyllableBlocks = blocks
        let imaging = RecognitionImaging(imager: imager)
        let ink = imaging.prepare(strokes, hint: .text)
        return try #require(imaging.render(ink, line: 0, variant: imaging.options.render).first).image
    }

    /// Ink split by syllable blocks with a smaller margin: the image is as high (within a
    /// pixel), the ink fills more of it; other ink is drawn as before.
    @Test func aSmallerBlockMarginDrawsTheInkTallerInAnImageAsHigh() throws {
        func image(blocks: Bool, scale: Double) throws -> GrayImage {
            try Self.firstLineImage(LineImager(blockMarginScale: scale), blocks: blocks)
        }
        /// Rows with ink in them.
        func inkRows(_ image: GrayImage) throws -> Int {
            let bounds = try #require(image.inkBounds(threshold: 128))
            return bounds.maxY - bounds.minY + 1
        }
        let before = try image(blocks: true, scale: 1), after = try image(blocks: true, scale: 0.25)
        #expect(abs(after.height - before.height) <= 1)
        #expect(Double(try inkRows(after)) > 1.2 * Double(try inkRows(before)))
        #expect(try image(blocks: false, scale: 0.25) == image(blocks: false, scale: 1))
    }

    /// Ink split by syllable blocks with a larger ink scale: the whole image (ink, pen and
    /// margin) is that much taller; other ink is drawn as before.
    @Test func aLargerBlockInkScaleDrawsTheWholeImageTaller() throws {
        func image(blocks: Bool, scale: Double) throws -> GrayImage {
            try Self.firstLineImage(LineImager(blockInkScale: scale), blocks: blocks)
        }
        let before = try image(blocks: true, scale: 1), after = try image(blocks: true, scale: 1.25)
        #expect(abs(Double(after.height) - 1.25 * Double(before.height)) <= 1.5)
        #expect(abs(Double(after.width) - 1.25 * Double(before.width)) <= 1.5)
        #expect(try image(blocks: false, scale: 1.25) == image(blocks: false, scale: 1))
    }

    /// Ink not split by syllable blocks with a larger line ink scale (a Latin network reading
    /// taller lines): the whole image is that much taller; ink split by syllable blocks keeps
    /// its own scale.
    @Test func aLargerLineInkScaleDrawsOtherLinesTaller() throws {
        func image(blocks: Bool, scale: Double) throws -> GrayImage {
            try Self.firstLineImage(LineImager(lineInkScale: scale), blocks: blocks)
        }
        let before = try image(blocks: false, scale: 1), after = try image(blocks: false, scale: 48.0 / 38)
        #expect(after.height == 48 && before.height == 38)
        #expect(abs(Double(after.width) - 48.0 / 38 * Double(before.width)) <= 1.5)
        #expect(try image(blocks: true, scale: 48.0 / 38) == image(blocks: true, scale: 1))
    }

    /// `.model` draws Korean lines as high as the network reads them, never lower than other
    /// lines and at most twice as high; `.fixed` ignores the network.
    @Test func theModelsBlockInkScaleFollowsItsInputHeight() {
        #expect(abs(BlockInkScale.model.scale(networkInputHeight: 48, lineHeight: 38) - 48.0 / 38) < 1e-12)
        #expect(BlockInkScale.model.scale(networkInputHeight: 36, lineHeight: 38) == 1)
        #expect(BlockInkScale.model.scale(networkInputHeight: 120, lineHeight: 38) == 2)
        #expect(BlockInkScale.model.scale(networkInputHeight: nil, lineHeight: 38) == 1)
        #expect(BlockInkScale.fixed(1.5).scale(networkInputHeight: 36, lineHeight: 38) == 1.5)
        // The default rendering's lines are 38 pixels high; at 48/38 Korean ones are 48.
        var korean = LineImager(blockInkScale: 48.0 / 38)
        korean.options.segmentation.groupsSyllableBlocks = true
        #expect(korean.renderOptions(for: RenderVariant()).imageHeight == 38)
        #expect(korean.renderOptions(for: korean.drawn(RenderVariant())).imageHeight == 48)
    }

    /// Clean ink (nothing to repair, not a lone glyph) is drawn exactly as the line imager
    /// draws it with the text stretch: the imaging adds decisions, never different pixels.
    @Test func cleanInkMatchesTheLineImager() throws {
        let sample = try Corpus.sample("print.jsonl", text: "email Sarah")
        let strokes = Self.strokes(sample)
        let imaging = RecognitionImaging()
        let ink = imaging.prepare(strokes, hint: .text)
        #expect(!ink.repaired)
        let images = ink.lines.lines.indices.flatMap { imaging.render(ink, line: $0, variant: imaging.options.render) }
        let direct = LineImager(options: RenderOptions(widthScale: imaging.options.textWidthScale,
                                                       longLineWidthScale: imaging.options.longTextWidthScale))
            .render(strokes, variant: imaging.options.render)
        #expect(images.map(\.image) == direct.map(\.image))
    }
}
