import Ink

/// One text line rendered for Tesseract, with the way back to board coordinates.
public struct LineImage: Sendable {
    public var image: GrayImage
    /// Indexes into the request's strokes drawn in this image.
    public var strokeIndexes: [Int]
    /// Maps image pixels back to board coordinates.
    public var imageToBoard: AffineTransform

    public init(image: GrayImage, strokeIndexes: [Int], imageToBoard: AffineTransform) {
        self.image = image
        self.strokeIndexes = strokeIndexes
        self.imageToBoard = imageToBoard
    }
}

/// Splits ink into lines and renders each at a fixed ink height, as the pen drew it.
public struct LineImager: Sendable {
    /// Ink height of a line in the image, in pixels.
    public var targetHeight = 24.0
    /// Pen width as a fraction of `targetHeight`.
    public var penWidthRatio = 0.08
    /// White margin around the ink as a fraction of `targetHeight`.
    public var paddingRatio = 0.25
    /// Largest scale factor, so flat ink (a dash, a row of dots) cannot become a huge image.
    public var maxScale = 8.0
    /// Widest image handed to Tesseract.
    public var maxWidth = 4000
    public var segmenter = LineSegmenter()

    public init() {}

    public func render(_ strokes: [Stroke]) -> [LineImage] {
        segmenter.segment(strokes).compactMap { indexes in renderLine(strokes, indexes) }
    }

    func renderLine(_ strokes: [Stroke], _ indexes: [Int]) -> LineImage? {
        let lineStrokes = indexes.map { strokes[$0] }
        var box: Rect?
        for bounds in lineStrokes.compactMap(\.bounds) { box = box.map { $0.union(bounds) } ?? bounds }
        guard let box else { return nil }
        let scale = min(maxScale, box.height > 0 ? targetHeight / box.height : maxScale,
                        box.width > 0 ? Double(maxWidth) * 0.9 / box.width : maxScale)
        let padding = paddingRatio * targetHeight
        let width = Int((box.width * scale + 2 * padding).rounded(.up)) + 1
        let height = Int((box.height * scale + 2 * padding).rounded(.up)) + 1
        let boardToImage = AffineTransform(translationX: -box.x, y: -box.y)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(AffineTransform(translationX: padding, y: padding))
        var image = GrayImage(width: min(width, maxWidth), height: height)
        Rasterizer(penWidth: max(1, penWidthRatio * targetHeight)).draw(lineStrokes, transform: boardToImage, into: &image)
        guard let imageToBoard = boardToImage.inverted() else { return nil }
        return LineImage(image: image, strokeIndexes: indexes, imageToBoard: imageToBoard)
    }
}
