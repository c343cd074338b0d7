/// A point in board or image coordinates (y grows downward in both).
public struct Point: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate, growing downward.
    public var y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// Euclidean distance to `other`.
    public func distance(to other: Point) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}
