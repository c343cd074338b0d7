/// An axis-aligned rectangle: origin (top-left in y-down coordinates) and size.
///
/// Width and height are expected to be non-negative; every constructor here guarantees it.
/// A rectangle of zero size (the bounds of a single point) is valid and still has a position.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Horizontal size, ≥ 0.
    public var width: Double
    /// Vertical size, ≥ 0.
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle between two x and two y edges (`right` ≥ `left`, `bottom` ≥ `top`), as
    /// Tesseract and Leptonica give boxes.
    public init(left: Double, top: Double, right: Double, bottom: Double) {
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle of `width` × `height` whose centre is `center`.
    public init(center: Point, width: Double, height: Double) {
        self.init(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
    }

    /// The rectangle spanning two corners, in any order.
    public init(corner a: Point, corner b: Point) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The smallest rectangle containing every point, or `nil` for no points.
    public init?(boundingPoints points: some Sequence<Point>) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        while let point = iterator.next() {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The centre point.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// The smallest rectangle containing both.
    public func union(_ other: Rect) -> Rect {
        let left = min(minX, other.minX), top = min(minY, other.minY)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// Whether the two overlap or touch (closed rectangles, so zero-size rectangles count).
    public func intersects(_ other: Rect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The overlapping part, or `nil` when they do not intersect.
    public func intersection(_ other: Rect) -> Rect? {
        guard intersects(other) else { return nil }
        let left = max(minX, other.minX), top = max(minY, other.minY)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// Whether `point` lies inside or on the edge.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether `other` lies entirely inside (edges included).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// This rectangle grown by `dx` on the left and right and `dy` on the top and bottom
    /// (shrunk for negative values, never below zero size).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        let width = max(0, self.width - 2 * dx), height = max(0, self.height - 2 * dy)
        return Rect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
    }

    /// `Rect(x, y, w × h)`.
    public var description: String { "Rect(\(x), \(y), \(width) × \(height))" }
}
