import Ink

/// One text line (or a piece of a long one) rendered for Tesseract, with the way back to board
/// coordinates.
public struct LineImage: Sendable {
    public var image: GrayImage
    /// Indexes into the request's strokes drawn in this image, in writing order.
    public var strokeIndexes: [Int]
    /// Maps image pixels back to board coordinates.
    public var imageToBoard: AffineTransform
    /// Maps board coordinates to image pixels (the inverse of `imageToBoard`).
    public var boardToImage: AffineTransform

    public init(image: GrayImage, strokeIndexes: [Int], imageToBoard: AffineTransform, boardToImage: AffineTransform) {
        self.image = image
        self.strokeIndexes = strokeIndexes
        self.imageToBoard = imageToBoard
        self.boardToImage = boardToImage
    }
}

/// Splits ink into lines and renders each at a fixed ink height, as the pen drew it.
public struct LineImager: Sendable {
    /// Largest scale factor, so flat ink (a dash, a row of dots) cannot become a huge image.
    public var maxScale = 8.0
    /// Widest image handed to Tesseract.
    public var maxWidth = 4000
    public var segmenter = LineSegmenter()

    public init() {}

    /// Stroke indexes per text line, top to bottom.
    public func lines(of strokes: [Stroke]) -> [[Int]] {
        segmenter.segment(strokes)
    }

    /// Every line rendered with `variant`.
    public func render(_ strokes: [Stroke], variant: RenderVariant = RenderVariant()) -> [LineImage] {
        lines(of: strokes).flatMap { render(line: $0, of: strokes, variant: variant) }
    }

    /// The images of one line: usually one, several pieces for a line too wide for one image.
    public func render(line indexes: [Int], of strokes: [Stroke], variant: RenderVariant) -> [LineImage] {
        let lineStrokes = indexes.map { strokes[$0] }
        guard let box = lineStrokes.bounds else { return [] }
        let target = variant.inkHeight
        let scale = min(maxScale, box.height > 0 ? target / box.height : maxScale,
                        box.width > 0 ? Double(maxWidth) * 0.9 / box.width : maxScale)
        let padding = variant.paddingRatio * target
        let width = Int((box.width * scale + 2 * padding).rounded(.up)) + 1
        let height = Int((box.height * scale + 2 * padding).rounded(.up)) + 1
        let boardToImage = AffineTransform(translationX: -box.x, y: -box.y)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(AffineTransform(translationX: padding, y: padding))
        var image = GrayImage(width: min(width, maxWidth), height: height)
        Rasterizer(penWidth: max(1, variant.penWidthRatio * target)).draw(lineStrokes, transform: boardToImage, into: &image)
        guard let imageToBoard = boardToImage.inverted() else { return [] }
        return [LineImage(image: image, strokeIndexes: indexes, imageToBoard: imageToBoard, boardToImage: boardToImage)]
    }
}
