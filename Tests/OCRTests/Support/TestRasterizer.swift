import Ink

/// A deliberately simple rasterizer for test images: thick anti-aliased polylines.
///
/// The product rasterizer lives in the Ink module; this one only has to produce clean,
/// predictable ink so that recognition tests depend on Tesseract and not on normalisation.
enum TestRasterizer {
    /// Scales the ink so its bounding box is `inkHeight` pixels tall, pads it with white and
    /// draws each stroke with a round pen `penWidth` pixels wide.
    static func draw(
        _ strokes: [[(x: Double, y: Double)]],
        inkHeight: Double = 40,
        penWidth: Double = 3,
        padding: Int = 12
    ) -> GrayImage {
        let points = strokes.flatMap { $0 }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
        else { return GrayImage(width: 1, height: 1) }
        let scale = inkHeight / max(maxY - minY, 1)
        let width = Int(((maxX - minX) * scale).rounded(.up)) + 2 * padding
        let height = Int(inkHeight.rounded(.up)) + 2 * padding
        var coverage = [Double](repeating: 0, count: width * height)
        let radius = penWidth / 2
        for stroke in strokes {
            let mapped = stroke.map { (x: ($0.x - minX) * scale + Double(padding),
                                       y: ($0.y - minY) * scale + Double(padding)) }
            guard let first = mapped.first else { continue }
            let segments = mapped.count == 1 ? [(first, first)] : Array(zip(mapped, mapped.dropFirst()))
            for (a, b) in segments {
                stamp(segment: a, b, radius: radius, into: &coverage, width: width, height: height)
            }
        }
        return GrayImage(width: width, height: height,
                         pixels: coverage.map { UInt8((255 * (1 - $0)).rounded()) })
    }

    private static func stamp(
        segment a: (x: Double, y: Double), _ b: (x: Double, y: Double), radius: Double,
        into coverage: inout [Double], width: Int, height: Int
    ) {
        let minX = max(Int((min(a.x, b.x) - radius - 1).rounded(.down)), 0)
        let maxX = min(Int((max(a.x, b.x) + radius + 1).rounded(.up)), width - 1)
        let minY = max(Int((min(a.y, b.y) - radius - 1).rounded(.down)), 0)
        let maxY = min(Int((max(a.y, b.y) + radius + 1).rounded(.up)), height - 1)
        guard minX <= maxX, minY <= maxY else { return }
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        for y in minY...maxY {
            for x in minX...maxX {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                var t = lengthSquared > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / lengthSquared : 0
                t = min(max(t, 0), 1)
                let ex = px - (a.x + t * dx), ey = py - (a.y + t * dy)
                let distance = (ex * ex + ey * ey).squareRoot()
                // One pixel of linear falloff at the pen's edge: the anti-aliasing.
                let value = min(max(radius + 0.5 - distance, 0), 1)
                let index = y * width + x
                if value > coverage[index] { coverage[index] = value }
            }
        }
    }
}
