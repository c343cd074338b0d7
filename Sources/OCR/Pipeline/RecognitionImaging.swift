import Ink

/// The pipeline's imaging on its own: from request strokes to the line images Tesseract reads,
/// with no Tesseract involved.
///
/// `RecognitionPipeline` runs exactly these steps before it reads each image, so tools that
/// need the service's images (the training-set renderer, debugging) get them from here and
/// cannot drift from what recognition sees.
public struct RecognitionImaging: Sendable {
    public let imager: LineImager
    public let options: RecognitionOptions

    public init(imager: LineImager = LineImager(), options: RecognitionOptions = RecognitionOptions()) {
        self.imager = imager
        self.options = options
    }

    /// Ink ready to be rendered: repaired strokes split into lines.
    public struct PreparedInk: Sendable {
        /// The strokes after `StrokeRepair` and `StrokeSmoothing` (the request's strokes when
        /// neither changed anything): what boxes are measured on.
        public var strokes: [Stroke]
        /// The strokes drawn into the line images: `strokes`, with a number's tall marks
        /// squeezed when that is on (`TallMarks`).
        public var imageStrokes: [Stroke]
        /// For each repaired stroke, the index of the request stroke it came from (the strokes are
        /// in the order `LineSegmenter.geometricOrder` gives, not the request's).
        public var origin: [Int]
        /// Whether repair or smoothing changed anything.
        public var repaired: Bool
        /// The lines, top to bottom.
        public var lines: InkLines
        /// Whether the whole ink is one small glyph (read as one character).
        public var isSingleGlyph: Bool
        /// How Tesseract reads each line image of this ink.
        public var mode: PageSegmentationMode
        /// The imager with the hint's slant and width settings.
        var imager: LineImager
    }

    /// Repairs the strokes, smooths coarse ink, decides single glyph or lines, and picks the
    /// line mode for `hint`.
    public func prepare(_ requestStrokes: [Stroke], hint: CharacterHint) -> PreparedInk {
        var repaired = options.repairsStrokes ? StrokeRepair().repair(requestStrokes)
            : StrokeRepair.Result(strokes: requestStrokes, origin: Array(requestStrokes.indices), changed: false)
        // After repair: a pen jump resampled into small steps would no longer look like one.
        if options.smoothsCoarseInk, let smoothed = StrokeSmoothing().smoothed(repaired.strokes) {
            repaired.strokes = smoothed
            repaired.changed = true
        }
        // Every later step takes Hangul strokes, and Latin strokes that did not come in writing
        // order, in an order made from their geometry (rows top to bottom, each left to right), so
        // what is read does not depend on the order they came in; Latin strokes in writing order
        // keep it (`LineSegmenter.geometricOrder`).
        let segmenter = LineSegmenter(options: imager.options.segmentation)
        let order = segmenter.geometricOrder(repaired.strokes)
        repaired.strokes = order.map { repaired.strokes[$0] }
        repaired.origin = order.map { repaired.origin[$0] }
        let strokes = repaired.strokes
        let glyph = isSingleGlyph(strokes)
        var imager = self.imager
        imager.options.correctsSlant = hint == .text ? options.textCorrectsSlant : options.numericCorrectsSlant
        // Hangul (ink grouped by syllable blocks) keeps its square blocks: stretched, the
        // held-out font read slightly worse.
        let stretched = !glyph && !imager.options.segmentation.groupsSyllableBlocks
        switch (stretched, hint) {
        case (true, .text): imager.options.widthScale = options.textWidthScale
        case (true, .number): imager.options.widthScale = options.numericWidthScale
        default: imager.options.widthScale = 1
        }
        imager.options.longLineWidthScale = stretched && hint == .text ? options.longTextWidthScale : nil
        // A lone glyph is one line whatever the segmenter makes of its strokes (the bar of a 5
        // can look like a line of its own).
        let lines = glyph ? InkLines(lines: [strokes.indices.filter { strokes[$0].pointCount > 0 }],
                                     typicalStrokeHeight: imager.typicalStrokeHeight(of: strokes))
            : InkLines(lines: segmenter.segment(strokes, inGeometricOrder: true), typicalStrokeHeight: imager.typicalStrokeHeight(of: strokes))
        // After line finding, so a squeezed mark cannot move a stroke to another line.
        var imageStrokes = strokes
        if options.squeezesTallMarks, hint == .number, !glyph {
            for line in lines.lines { TallMarks().squeeze(&imageStrokes, line: line) }
        }
        let mode: PageSegmentationMode = glyph ? .singleCharacter : hint == .text ? options.textLineMode : options.numericLineMode
        return PreparedInk(strokes: strokes, imageStrokes: imageStrokes, origin: repaired.origin, repaired: repaired.changed,
                           lines: lines, isSingleGlyph: glyph, mode: mode, imager: imager)
    }

    /// The images of line `index` of `ink` drawn with `variant`: usually one, several pieces
    /// for a line too wide for one image.
    public func render(_ ink: PreparedInk, line index: Int, variant: RenderVariant) -> [LineImage] {
        ink.imager.render(line: ink.lines.lines[index], of: ink.imageStrokes,
                          typicalStrokeHeight: ink.lines.typicalStrokeHeight, variant: variant)
    }

    /// Whether the whole ink is one small glyph: few strokes, no wider than tall (by
    /// `singleGlyphMaxAspect`).
    func isSingleGlyph(_ strokes: [Stroke]) -> Bool {
        let drawn = strokes.filter { $0.pointCount > 0 }
        guard !drawn.isEmpty, drawn.count <= options.singleGlyphMaxStrokes, let box = drawn.bounds, box.height > 0 else {
            return false
        }
        return box.width <= options.singleGlyphMaxAspect * box.height
    }
}
