/// One rendered line (or piece of a long line) of ink, ready for the recognizer.
public struct LineRendering: Sendable, Equatable {
    /// Black ink on white, `targetInkHeight` plus margins high.
    public var image: GrayImage
    /// Indexes into the strokes given to the normalizer, in writing order.
    public var strokeIndexes: [Int]
    /// Maps board coordinates to image pixel coordinates (pixel (i, j) spans
    /// [i, i+1) × [j, j+1)).
    public var boardToImage: AffineTransform
    /// The exact inverse of `boardToImage`: maps a box found in the image back to the board.
    public var imageToBoard: AffineTransform

    /// A rendering from its parts.
    public init(image: GrayImage, strokeIndexes: [Int], boardToImage: AffineTransform, imageToBoard: AffineTransform) {
        self.image = image
        self.strokeIndexes = strokeIndexes
        self.boardToImage = boardToImage
        self.imageToBoard = imageToBoard
    }
}
