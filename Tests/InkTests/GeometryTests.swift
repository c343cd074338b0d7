import Geometry
@testable import Ink
import Testing

@Suite struct RectTests {
    @Test func helpers() {
        let a = Rect(x: 0, y: 0, width: 10, height: 4)
        let b = Rect(x: 5, y: 2, width: 10, height: 10)
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 12))
        #expect(a.intersects(b))
        #expect(a.intersection(b) == Rect(x: 5, y: 2, width: 5, height: 2))
        #expect(!a.intersects(Rect(x: 11, y: 0, width: 1, height: 1)))
        #expect(a.intersection(Rect(x: 11, y: 0, width: 1, height: 1)) == nil)
        #expect(a.center == Point(x: 5, y: 2))
        #expect(a.contains(Point(x: 10, y: 4)))
        #expect(!a.contains(Point(x: 10.01, y: 4)))
        #expect(a.union(b).contains(a))
        #expect(!a.contains(b))
        #expect(a.insetBy(dx: 1, dy: 1) == Rect(x: 1, y: 1, width: 8, height: 2))
        #expect(a.insetBy(dx: -1, dy: 0) == Rect(x: -1, y: 0, width: 12, height: 4))
        #expect(Rect(corner: Point(x: 3, y: 7), corner: Point(x: 1, y: 2)) == Rect(x: 1, y: 2, width: 2, height: 5))
        #expect(Rect(boundingPoints: [Point]()) == nil)
        #expect(Rect(boundingPoints: [Point(x: 2, y: 3)]) == Rect(x: 2, y: 3, width: 0, height: 0))
    }
}

@Suite struct AffineTransformTests {
    private let samples = [Point(x: 0, y: 0), Point(x: 3, y: -4), Point(x: 1e4, y: 2.5e4), Point(x: -7.25, y: 0.5)]

    private func close(_ a: Point, _ b: Point, tolerance: Double = 1e-9) -> Bool {
        let scale = max(1, abs(a.x), abs(a.y), abs(b.x), abs(b.y))
        return a.distance(to: b) <= tolerance * scale
    }

    @Test func basicMaps() {
        let point = Point(x: 2, y: 3)
        #expect(AffineTransform(translationX: 1, y: -1).apply(to: point) == Point(x: 3, y: 2))
        #expect(AffineTransform(scaleX: 2, y: 3).apply(to: point) == Point(x: 4, y: 9))
        #expect(AffineTransform(shearX: 0.5).apply(to: point) == Point(x: 3.5, y: 3))
        // A quarter turn clockwise on screen (y down): +x goes to +y.
        #expect(close(AffineTransform(rotation: .pi / 2).apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 1)))
    }

    @Test func concatenationAppliesLeftThenRight() {
        let first = AffineTransform(translationX: 10, y: 0)
        let second = AffineTransform(scaleX: 2, y: 2)
        for point in samples {
            #expect(close(first.concatenating(second).apply(to: point), second.apply(to: first.apply(to: point))))
        }
    }

    @Test func inverseRoundTrips() throws {
        let transform = AffineTransform(translationX: -1234.5, y: 987)
            .concatenating(AffineTransform(rotation: 0.3))
            .concatenating(AffineTransform(shearX: -0.4))
            .concatenating(AffineTransform(scaleX: 0.037, y: 0.037))
            .concatenating(AffineTransform(translationX: 6.5, y: 8))
        let inverse = try #require(transform.inverted())
        for point in samples {
            #expect(close(inverse.apply(to: transform.apply(to: point)), point))
            #expect(close(transform.apply(to: inverse.apply(to: point)), point))
        }
        #expect(AffineTransform(scaleX: 0, y: 1).inverted() == nil)
    }

    @Test func rectMappingIsTheBoundingBoxOfTheCorners() {
        let square = Rect(x: 0, y: 0, width: 2, height: 2)
        let rotated = AffineTransform(rotation: .pi / 4).apply(to: square)
        let half = 2.0.squareRoot()
        #expect(abs(rotated.minX + half) < 1e-12 && abs(rotated.maxX - half) < 1e-12)
        #expect(abs(rotated.minY) < 1e-12 && abs(rotated.maxY - 2 * half) < 1e-12)
        #expect(AffineTransform(scaleX: -1, y: 2).apply(to: square) == Rect(x: -2, y: 0, width: 2, height: 4))
    }
}
