/// Turns ink into line images for the recognizer: segments it into lines, levels, scales and
/// pads each line, splits lines too wide for one image, and rasterizes.
///
/// Every geometric step is an affine map, composed into one board → image transform per
/// image and inverted exactly, so whatever the recognizer finds in an image can be mapped
/// back onto the board.
public struct InkNormalizer: Sendable {
    /// All knobs.
    public var options: RenderOptions

    /// A normalizer with the given options.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// One image per line (lines top to bottom), or several for a line too wide for one
    /// (pieces left to right). No ink gives no images.
    public func render(_ strokes: [Stroke]) -> [LineRendering] {
        let lines = LineSegmenter(options: options.segmentation).segment(strokes)
        let typical = typicalStrokeHeight(of: strokes, indexes: Array(strokes.indices))
        return lines.flatMap { render(line: $0, of: strokes, typicalStrokeHeight: typical) }
    }

    /// The images for one line, given as indexes into `strokes`. `typicalStrokeHeight` (of the
    /// whole ink, in board units) lets flat lines be scaled like their neighbours.
    public func render(line: [Int], of strokes: [Stroke], typicalStrokeHeight: Double? = nil) -> [LineRendering] {
        layout(line: line, of: strokes, typicalStrokeHeight: typicalStrokeHeight).compactMap { placement in
            guard let imageToBoard = placement.boardToImage.inverted() else { return nil }
            var image = GrayImage(width: placement.width, height: placement.height)
            Rasterizer(penWidth: options.penWidth, antialiased: options.antialiased)
                .draw(placement.strokeIndexes.map { strokes[$0] }, transform: placement.boardToImage, into: &image)
            return LineRendering(image: image, strokeIndexes: placement.strokeIndexes,
                                 boardToImage: placement.boardToImage, imageToBoard: imageToBoard)
        }
    }

    /// The median height of the strokes that are not dots or dashes, in board units, or
    /// `nil` when every stroke is flat.
    public func typicalStrokeHeight(of strokes: [Stroke], indexes: [Int]) -> Double? {
        let heights = indexes.compactMap { strokes[$0].bounds?.height }
        return SegmentationState.typicalHeight(of: heights, dotRatio: options.segmentation.dotRatio)
    }
}
