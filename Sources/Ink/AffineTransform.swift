#if canImport(Glibc)
import Geometry
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2-D affine map, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (the CoreGraphics layout).
///
/// The normalizer builds a board → image transform step by step and hands out its inverse,
/// so a box the recognizer finds in a line image maps back onto the board exactly.
public struct AffineTransform: Sendable, Hashable, CustomStringConvertible {
    /// x scale (and rotation) coefficient: contribution of x to x'.
    public var a: Double
    /// Contribution of x to y'.
    public var b: Double
    /// Contribution of y to x'.
    public var c: Double
    /// y scale (and rotation) coefficient: contribution of y to y'.
    public var d: Double
    /// Horizontal translation.
    public var tx: Double
    /// Vertical translation.
    public var ty: Double

    /// A transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The map that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public init(translationX dx: Double, y dy: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// A scaling about the origin.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `angle` radians; in y-down coordinates a positive angle
    /// turns clockwise on screen.
    public init(rotation angle: Double) {
        let cosine = cos(angle), sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// A horizontal shear: `x' = x + factor·y`, `y' = y`.
    public init(shearX factor: Double) {
        self.init(a: 1, b: 0, c: factor, d: 1, tx: 0, ty: 0)
    }

    /// `point` mapped by this transform.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// The bounding box of the four mapped corners of `rect`.
    public func apply(to rect: Rect) -> Rect {
        let corners = [
            apply(to: Point(x: rect.minX, y: rect.minY)), apply(to: Point(x: rect.maxX, y: rect.minY)),
            apply(to: Point(x: rect.minX, y: rect.maxY)), apply(to: Point(x: rect.maxX, y: rect.maxY)),
        ]
        // Four points always give a bounding box.
        return Rect(boundingPoints: corners) ?? rect
    }

    /// The transform that applies `self` first and then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The determinant of the linear part; zero for a map that collapses the plane.
    public var determinant: Double { a * d - b * c }

    /// The inverse map, or `nil` when this one is singular (or not finite).
    public func inverted() -> AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// `[a b c d | tx ty]`.
    public var description: String { "AffineTransform([\(a) \(b) \(c) \(d) | \(tx) \(ty)])" }
}
