import Ink

/// One text line (or a piece of a long one) rendered for Tesseract, with the way back to board
/// coordinates: the normalizer's rendering, whichever variant drew it.
public typealias LineImage = LineRendering

/// Ink split into text lines, ready to be rendered once or several times.
public struct InkLines: Sendable {
    /// Stroke indexes per line, top to bottom.
    public var lines: [[Int]]
    /// The typical stroke height of the whole ink (board units), so that flat lines (a dash, a
    /// row of dots) are scaled like their neighbours.
    public var typicalStrokeHeight: Double?
}

/// Splits ink into lines and renders each with `Ink.InkNormalizer`: baseline levelled (within
/// `RenderOptions.maxRotationDegrees`), scaled to the variant's ink height with the flat-ink
/// clamp, long lines split at word gaps to the width cap, padded, drawn with a round
/// anti-aliased pen. Every step is affine, so each image carries its exact map to the board.
public struct LineImager: Sendable {
    /// Everything but the variant's height, pen and padding.
    public var options: RenderOptions
    /// Ink split into lines by syllable blocks (`options.segmentation.groupsSyllableBlocks`, the
    /// Korean models) is drawn with its margin this many times the variant's, and its ink taller
    /// by as much as keeps the image as high (see `drawn(_:)`). A Hangul line has no ascenders or
    /// descenders to leave room for, so the margin only costs its syllables rows of the network's
    /// input. Default 1: as every other line.
    public var blockMarginScale: Double
    /// Ink split by syllable blocks is drawn this many times as high as other lines (ink, pen
    /// and margin alike), for a network whose input is that much taller: a Hangul syllable's
    /// final consonant and the ticks of its vowel are a few pixels at the usual height. Default
    /// 1: as every other line.
    public var blockInkScale: Double
    /// Ink not split by syllable blocks is drawn this many times as high as the variant says
    /// (ink, pen and margin alike), for a network whose input is that much taller than other
    /// lines' images (`BlockInkScale.model`'s scale of a Latin network reading 48-pixel lines).
    /// Default 1.
    public var lineInkScale: Double

    /// An imager with the given normalisation options.
    public init(options: RenderOptions = RenderOptions(), blockMarginScale: Double = 1, blockInkScale: Double = 1,
                lineInkScale: Double = 1) {
        self.options = options
        self.blockMarginScale = blockMarginScale
        self.blockInkScale = blockInkScale
        self.lineInkScale = lineInkScale
    }

    /// The variant this imager actually draws for `variant`: the same, except for ink split by
    /// syllable blocks, whose margin is scaled by `blockMarginScale` (the ink height growing so
    /// that ink, margins and pen are as high as before) and whose whole image is
    /// `blockInkScale` times as high; other ink's image is `lineInkScale` times as high.
    public func drawn(_ variant: RenderVariant) -> RenderVariant {
        guard options.segmentation.groupsSyllableBlocks else {
            guard lineInkScale != 1 else { return variant }
            var drawn = variant
            drawn.inkHeight = variant.inkHeight * lineInkScale
            return drawn
        }
        guard blockMarginScale != 1 || blockInkScale != 1 else { return variant }
        var drawn = variant
        drawn.paddingRatio = variant.paddingRatio * blockMarginScale
        let before = 1 + 2 * variant.paddingRatio + variant.penWidthRatio
        let after = 1 + 2 * drawn.paddingRatio + drawn.penWidthRatio
        drawn.inkHeight = variant.inkHeight * before / after * blockInkScale
        return drawn
    }

    /// The normalisation options with `variant`'s height, pen, padding and slant.
    public func renderOptions(for variant: RenderVariant) -> RenderOptions {
        var options = self.options
        options.targetInkHeight = variant.inkHeight
        options.penWidthRatio = variant.penWidthRatio
        options.paddingRatio = variant.paddingRatio
        if let slant = variant.correctsSlant { options.correctsSlant = slant }
        return options
    }

    /// The ink's text lines.
    public func lines(of strokes: [Stroke]) -> InkLines {
        InkLines(lines: LineSegmenter(options: options.segmentation).segment(strokes),
                 typicalStrokeHeight: typicalStrokeHeight(of: strokes))
    }

    /// The median height of the strokes that are not dots or dashes (board units), or `nil`.
    public func typicalStrokeHeight(of strokes: [Stroke]) -> Double? {
        InkNormalizer(options: options).typicalStrokeHeight(of: strokes, indexes: Array(strokes.indices))
    }

    /// Every line rendered with `variant`, top to bottom (pieces of a split line left to right).
    public func render(_ strokes: [Stroke], variant: RenderVariant = RenderVariant()) -> [LineImage] {
        let ink = lines(of: strokes)
        return ink.lines.flatMap { render(line: $0, of: strokes, typicalStrokeHeight: ink.typicalStrokeHeight, variant: variant) }
    }

    /// The images of one line: usually one, several pieces for a line too wide for one image.
    public func render(line: [Int], of strokes: [Stroke], typicalStrokeHeight: Double?, variant: RenderVariant) -> [LineImage] {
        let variant = drawn(variant)
        let options = renderOptions(for: variant)
        let normalizer = InkNormalizer(options: options)
        guard let bodyRatio = variant.bodyRatio else {
            return normalizer.render(line: line, of: strokes, typicalStrokeHeight: typicalStrokeHeight)
        }
        return normalizer.layout(line: line, of: strokes, typicalStrokeHeight: typicalStrokeHeight).compactMap { placement in
            var boardToImage = placement.boardToImage
            var width = placement.width, height = placement.height
            if let zoned = zoned(placement, strokes: strokes, variant: variant, bodyRatio: bodyRatio,
                                 baselineRatio: variant.baselineRatio) {
                (boardToImage, width, height) = zoned
            }
            guard let imageToBoard = boardToImage.inverted() else { return nil }
            var image = GrayImage(width: width, height: height)
            Rasterizer(penWidth: options.penWidth, antialiased: options.antialiased)
                .draw(placement.strokeIndexes.map { strokes[$0] }, transform: boardToImage, into: &image)
            return LineImage(image: image, strokeIndexes: placement.strokeIndexes, boardToImage: boardToImage, imageToBoard: imageToBoard)
        }
    }
}
