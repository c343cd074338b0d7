import CLeptonica
import Glibc
import Ink

/// Encodes 8-bit gray images as PNG with Leptonica (for debugging what the recogniser saw).
public enum PNGEncoder {
    public static func encode(_ image: GrayImage) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        var pix: UnsafeMutablePointer<PIX>? = pixCreate(Int32(image.width), Int32(image.height), 8)
        guard pix != nil else { return nil }
        defer { pixDestroy(&pix) }
        for y in 0..<image.height {
            for x in 0..<image.width {
                pixSetPixel(pix, Int32(x), Int32(y), UInt32(image.pixels[y * image.width + x]))
            }
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMem(&data, &size, pix, Int32(IFF_PNG)) == 0, let data else { return nil }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

extension GrayImage {
    /// Images stacked vertically on white, left-aligned, `gap` pixels apart.
    public static func stacked(_ images: [GrayImage], gap: Int) -> GrayImage {
        guard !images.isEmpty else { return GrayImage(width: 1, height: 1) }
        let width = images.map(\.width).max() ?? 1
        let height = images.map(\.height).reduce(0, +) + gap * (images.count - 1)
        var out = GrayImage(width: width, height: height)
        var top = 0
        for image in images {
            for y in 0..<image.height {
                let row = image.pixels[(y * image.width)..<((y + 1) * image.width)]
                out.pixels.replaceSubrange(((top + y) * width)..<((top + y) * width + image.width), with: row)
            }
            top += image.height + gap
        }
        return out
    }
}
