/// Where one image's ink goes: the strokes, the board → image map and the image size.
public struct LinePlacement: Sendable, Equatable {
    /// Indexes of the strokes in this image, in writing order.
    public var strokeIndexes: [Int]
    /// Board coordinates to image pixel coordinates.
    public var boardToImage: AffineTransform
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
}
