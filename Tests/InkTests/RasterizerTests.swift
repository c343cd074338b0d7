import Testing
@testable import Ink

@Suite struct RasterizerTests {
    /// Pen 6 px wide (radius 3) on a 41 × 41 canvas; (20.5, 20.5) is the centre of pixel (20, 20).
    private func canvas(_ strokes: [Stroke], penWidth: Double = 6, antialiased: Bool = true) -> GrayImage {
        var image = GrayImage(width: 41, height: 41)
        Rasterizer(penWidth: penWidth, antialiased: antialiased).draw(strokes, into: &image)
        return image
    }

    private func value(_ image: GrayImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y) ?? 255) }

    @Test func aDotIsRoundAndDarkAtItsCentre() {
        let image = canvas([Stroke(x: [20.5], y: [20.5])])
        #expect(value(image, 20, 20) == 0)
        // Coverage falls off with distance from the centre, the same in every direction.
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (2, 0), (0, -2), (1, 1), (-1, 1), (2, 2), (-2, -2), (3, 0), (0, 3)] {
            #expect(value(image, 20 + dx, 20 + dy) == value(image, 20 - dy, 20 + dx), "rotating (\(dx),\(dy)) by 90°")
        }
        #expect(value(image, 22, 20) == 0)                      // distance 2: inside
        #expect((100...155).contains(value(image, 23, 20)))     // distance 3: the pen edge, half covered
        #expect(value(image, 24, 20) == 255)                    // distance 4: outside
        #expect(value(image, 23, 23) == 255)                    // distance 4.2 on the diagonal: a square would ink it
        // Total ink matches the disc's area, π r².
        let ink = image.pixels.reduce(0.0) { $0 + Double(255 - Int($1)) / 255 }
        #expect(abs(ink - Double.pi * 9) < 1)
    }

    @Test func antialiasingProducesIntermediateGrays() {
        let stroke = Stroke(x: [5.3, 35.1], y: [7.7, 31.2])
        let soft = canvas([stroke])
        let grays = soft.pixels.filter { $0 > 0 && $0 < 255 }.count
        #expect(grays > 40)
        let hard = canvas([stroke], antialiased: false)
        #expect(hard.pixels.allSatisfy { $0 == 0 || $0 == 255 })
        #expect(hard.inkPixelCount() > 100)
    }

    @Test func capsAndSidesAreRound() {
        let image = canvas([Stroke(x: [10.5, 30.5], y: [20.5, 20.5])])
        #expect(value(image, 20, 20) == 0)
        #expect((100...155).contains(value(image, 20, 17)))    // side edge, 3 px from the axis
        #expect(value(image, 20, 16) == 255)
        #expect(value(image, 8, 20) == 0)                      // 2 px past the end: inside the cap
        #expect((100...155).contains(value(image, 7, 20)))     // 3 px past the end: cap edge
        #expect(value(image, 7, 17) == 255)                    // the cap's corner region stays white
        #expect(value(image, 33, 23) == 255)
        #expect(value(image, 32, 22) < 128)                    // inside the round cap (distance 2.1)
    }

    @Test func joinsAreRoundAndOverlapsDoNotDarkenTwice() {
        let corner = Stroke(x: [5.5, 20.5, 20.5], y: [20.5, 20.5, 35.5])
        let image = canvas([corner])
        // Outside corner of the join at distance 3.5 diagonally from the vertex (23.0, 18.0):
        #expect(value(image, 23, 17) == 255)
        #expect(value(image, 22, 19) < 128)
        let twice = canvas([corner, corner])
        #expect(twice == image)
    }

    @Test func drawingOrderDoesNotMatter() {
        let a = Stroke(x: [3, 38], y: [10, 30]), b = Stroke(x: [3, 38], y: [30, 12]), c = Stroke(x: [20], y: [5])
        #expect(canvas([a, b, c]) == canvas([c, b, a]))
    }

    @Test func transformIsAppliedToEveryPoint() {
        let stroke = Stroke(x: [1, 3, 5], y: [2, 2, 4])
        let transform = AffineTransform(scaleX: 5, y: 5).concatenating(AffineTransform(translationX: 3.25, y: 1.5))
        var viaTransform = GrayImage(width: 41, height: 41)
        Rasterizer(penWidth: 3).draw([stroke], transform: transform, into: &viaTransform)
        #expect(viaTransform == canvas([stroke.applying(transform)], penWidth: 3))
    }

    @Test func thinPensStillLeaveVisibleInk() {
        let image = canvas([Stroke(x: [5, 35], y: [20.5, 20.5])], penWidth: 0.5)
        #expect(value(image, 20, 20) < 100)
        #expect(value(image, 20, 19) == 255)
        let hard = canvas([Stroke(x: [5, 35], y: [20.5, 20.5])], penWidth: 0.2, antialiased: false)
        #expect(value(hard, 20, 20) == 0, "hard pens are at least one pixel wide")
    }

    @Test func inkOutsideTheImageIsClippedSafely() {
        let wild = [
            Stroke(x: [-1e9, 1e9], y: [-5e8, 5e8]),             // crosses the whole canvas
            Stroke(x: [1e300, -1e300], y: [0, 0]),              // far beyond Int range
            Stroke(x: [.infinity, 10], y: [.nan, 10]),
            Stroke(x: [-100, -50], y: [-100, -50]),             // entirely outside
        ]
        let image = canvas(wild)
        #expect(image.width == 41 && image.pixels.count == 41 * 41)
        #expect(value(image, 20, 10) == 0, "the long diagonal y = x / 2 crosses the canvas")
        var empty = GrayImage(width: 0, height: 0)
        Rasterizer(penWidth: 2).draw(wild, into: &empty)
        #expect(empty.pixels.isEmpty)
    }
}
