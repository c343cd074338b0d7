import Foundation
import Ink

/// Writes 8-bit grayscale images as one uncompressed, little-endian, multi-page TIFF: the
/// format `text2image` produces and `tesseract … lstm.train` reads page by page together with a
/// box file whose last column is the page number. One Tesseract run then turns hundreds of line
/// images into one `.lstmf` file instead of paying the model load per line.
struct TIFFWriter {
    /// Resolution written into every page (the service reports 300 dpi for its raw buffers).
    var dotsPerInch: UInt32 = 300

    /// The TIFF bytes of `pages`, in order. Empty pages are not allowed by TIFF; callers skip them.
    func encode(_ pages: [GrayImage]) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0]  // "II", 42
        let firstIFDSlot = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        var previousNextSlot = firstIFDSlot
        for page in pages {
            let pixelOffset = UInt32(out.count)
            out.append(contentsOf: page.pixels)
            if out.count % 2 == 1 { out.append(0) }  // IFDs start on a word boundary
            let entryCount = 12
            let ifdOffset = out.count
            let rationalOffset = UInt32(ifdOffset + 2 + entryCount * 12 + 4)
            patch(&out, at: previousNextSlot, UInt32(ifdOffset))
            append16(&out, UInt16(entryCount))
            // Tags in ascending order, as TIFF requires.
            entry(&out, tag: 256, type: 4, value: UInt32(page.width))          // ImageWidth
            entry(&out, tag: 257, type: 4, value: UInt32(page.height))         // ImageLength
            entry(&out, tag: 258, type: 3, value: 8)                           // BitsPerSample
            entry(&out, tag: 259, type: 3, value: 1)                           // Compression: none
            entry(&out, tag: 262, type: 3, value: 1)                           // BlackIsZero
            entry(&out, tag: 273, type: 4, value: pixelOffset)                 // StripOffsets
            entry(&out, tag: 277, type: 3, value: 1)                           // SamplesPerPixel
            entry(&out, tag: 278, type: 4, value: UInt32(page.height))         // RowsPerStrip
            entry(&out, tag: 279, type: 4, value: UInt32(page.pixels.count))   // StripByteCounts
            entry(&out, tag: 282, type: 5, value: rationalOffset)              // XResolution
            entry(&out, tag: 283, type: 5, value: rationalOffset + 8)          // YResolution
            entry(&out, tag: 296, type: 3, value: 2)                           // ResolutionUnit: inch
            previousNextSlot = out.count
            out.append(contentsOf: [0, 0, 0, 0])                               // next IFD, patched later
            for _ in 0..<2 {
                append32(&out, dotsPerInch)
                append32(&out, 1)
            }
        }
        return out
    }

    private func entry(_ out: inout [UInt8], tag: UInt16, type: UInt16, value: UInt32) {
        append16(&out, tag)
        append16(&out, type)
        append32(&out, 1)
        if type == 3 {
            append16(&out, UInt16(value))
            append16(&out, 0)
        } else {
            append32(&out, value)
        }
    }

    private func append16(_ out: inout [UInt8], _ value: UInt16) {
        out.append(UInt8(value & 0xFF))
        out.append(UInt8(value >> 8))
    }

    private func append32(_ out: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    private func patch(_ out: inout [UInt8], at index: Int, _ value: UInt32) {
        for byte in 0..<4 { out[index + byte] = UInt8((value >> UInt32(8 * byte)) & 0xFF) }
    }
}
