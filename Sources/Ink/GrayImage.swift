/// An 8-bit grayscale raster, row-major, one byte per pixel: 0 is black ink, 255 is white paper.
///
/// This is what the rasterizer produces and what the recognizer hands to Tesseract
/// (`TessBaseAPISetImage` with 1 byte per pixel and `width` bytes per line), without any
/// file-format round trip.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, row-major, top row first.
    public var pixels: [UInt8]

    /// A white image of the given size.
    public init(width: Int, height: Int, fill: UInt8 = 255) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: fill, count: width * height)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count must equal width * height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
