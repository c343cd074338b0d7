import Foundation
import Geometry
import Ink
import Testing
@testable import OCR

/// Ink of any scale a request may carry (coordinates within ±10⁷, strokes 10⁻¹⁴ to 10⁷ across)
/// goes through the preparation and every rendering without trapping: a `Double` past `Int.max`
/// in one step stopped the whole server (a letter height of 10⁻¹⁴ over a wide line did, twice).
@Suite struct ExtremeInkTests {
    private struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() * Double(values.count)) % values.count] }
    }

    private func prepareAndDraw(_ strokes: [Stroke]) {
        for hint in [CharacterHint.text, .number] {
            let imaging = RecognitionImaging()
            let ink = imaging.prepare(strokes, hint: hint)
            for line in ink.lines.lines.indices {
                for variant in RecognitionOptions().bestRenders {
                    for image in imaging.render(ink, line: line, variant: variant) {
                        #expect(image.image.width > 0 && image.image.height > 0)
                    }
                }
            }
        }
    }

    /// The two that trapped: many tiny strokes along a wide line (the baseline's bins), and a
    /// few points far apart, all but flat (the curve through sparse points).
    @Test func vanishingHeightsOverWideLines() {
        prepareAndDraw((0..<40).map { i in Stroke(x: [Double(i) * 25_000, Double(i) * 25_000 + 1e-14], y: [0, 1e-14]) })
        var xs: [Double] = [], ys: [Double] = []
        for k in 0..<12 {
            let jitter = Double((k * 37) % 11) * 1_234.5
            xs.append(Double(k) * 8e5 + jitter)
            ys.append((sin(Double(k) * 1.7) + 1) * 1e-14)
        }
        prepareAndDraw([Stroke(x: xs, y: ys)])
        var far: [Stroke] = []
        for i in 0..<6 {
            let xs: [Double] = (0..<12).map { Double(i) * 1e6 + Double($0) * 3e4 }
            let ys: [Double] = (0..<12).map { Double(($0 * 7 + i) % 5) * 1e-12 }
            far.append(Stroke(x: xs, y: ys))
        }
        prepareAndDraw(far)
    }

    @Test func inkOfAnyScaleIsPreparedAndDrawn() {
        var random = Generator(state: 20261206)
        let scales = [1e-14, 1e-9, 1e-6, 1e-3, 1, 1e3, 1e6, 9e6]
        let clamp = { (v: Double) in max(-1e7, min(1e7, v)) }
        for _ in 0..<80 {
            let sx = random.pick(scales), sy = random.pick(scales)
            let strokes = (0..<(1 + Int(random.next() * 40))).map { _ -> Stroke in
                let x0 = (2 * random.next() - 1) * min(1e7, sx * random.pick([1, 1e3, 1e6]))
                let y0 = (2 * random.next() - 1) * min(1e7, sy * random.pick([1, 10, 1e4]))
                let count = 1 + Int(random.next() * 20)
                return Stroke(x: (0..<count).map { _ in clamp(x0 + random.next() * sx) },
                              y: (0..<count).map { _ in clamp(y0 + random.next() * sy) })
            }
            prepareAndDraw(strokes)
        }
    }
}
