extension GrayImage {
    /// The pixel at column `x`, row `y`; `nil` outside the image.
    public func pixel(x: Int, y: Int) -> UInt8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }

    /// The number of pixels darker than `threshold`.
    public func inkPixelCount(threshold: UInt8 = 128) -> Int {
        pixels.reduce(0) { $0 + ($1 < threshold ? 1 : 0) }
    }

    /// The tightest pixel rectangle holding every pixel darker than `threshold`, as
    /// (minX, minY, maxX, maxY) inclusive, or `nil` for a blank image.
    public func inkBounds(threshold: UInt8 = 255) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for row in 0..<height {
            for column in 0..<width where pixels[row * width + column] < threshold {
                minX = min(minX, column)
                maxX = max(maxX, column)
                minY = min(minY, row)
                maxY = max(maxY, row)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// The image as a binary PGM (P5) file, viewable with most image tools; for debugging.
    public var pgm: [UInt8] {
        Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
    }
}
