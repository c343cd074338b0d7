#if canImport(Glibc)
import Geometry
import Glibc
#endif
@testable import Ink

/// Simple, deterministic ink shapes for tests that need exact geometry.
enum TestInk {
    /// An ellipse-like letter ("o") sitting on `baseline`, `height` high, starting at `x`.
    static func loop(x: Double, baseline: Double, height: Double, points: Int = 24) -> Stroke {
        let rx = height * 0.4, ry = height / 2
        let cx = x + rx, cy = baseline - ry
        return Stroke(points: (0...points).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(points)
            return Point(x: cx + rx * cos(angle), y: cy + ry * sin(angle))
        })
    }

    /// A vertical bar ("l") from `baseline - height` to `baseline`.
    static func bar(x: Double, baseline: Double, height: Double) -> Stroke {
        Stroke(points: (0...8).map { Point(x: x, y: baseline - height + height * Double($0) / 8) })
    }

    /// A word of `letters` alternating loops and bars on a baseline; letters are
    /// `height` high (bars 1.6× for ascenders) and advance by 0.9 × height.
    static func word(x: Double, baseline: Double, height: Double, letters: Int) -> [Stroke] {
        (0..<letters).map { index in
            let left = x + Double(index) * 0.9 * height
            return index % 3 == 2
                ? bar(x: left + 0.3 * height, baseline: baseline, height: 1.6 * height)
                : loop(x: left, baseline: baseline, height: height)
        }
    }

    /// The right edge of `word(x:baseline:height:letters:)`.
    static func wordEnd(x: Double, height: Double, letters: Int) -> Double {
        x + Double(letters) * 0.9 * height
    }

    /// Every stroke rotated by `degrees` about `centre`.
    static func rotated(_ strokes: [Stroke], degrees: Double, about centre: Point) -> [Stroke] {
        let transform = AffineTransform(translationX: -centre.x, y: -centre.y)
            .concatenating(AffineTransform(rotation: degrees * .pi / 180))
            .concatenating(AffineTransform(translationX: centre.x, y: centre.y))
        return strokes.map { $0.applying(transform) }
    }
}
