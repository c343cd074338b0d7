/// A point in board coordinates (y down), in points.
public struct LayoutPoint: Sendable, Equatable, Hashable, Codable {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A width and height, in points.
public struct LayoutSize: Sendable, Equatable, Hashable, Codable {
    /// Horizontal extent.
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle given by its top-left origin and size, like `CGRect`.
public struct LayoutRect: Sendable, Equatable, Hashable, Codable {
    /// The top-left corner.
    public var origin: LayoutPoint
    /// The extent.
    public var size: LayoutSize

    /// Creates a rectangle from its origin and size.
    public init(origin: LayoutPoint, size: LayoutSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates the rectangle of `size` whose centre is `center`.
    public init(center: LayoutPoint, size: LayoutSize) {
        self.origin = LayoutPoint(x: center.x - size.width / 2, y: center.y - size.height / 2)
        self.size = size
    }

    /// The centre: origin plus half the size.
    public var center: LayoutPoint {
        LayoutPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2)
    }

    /// Left edge.
    public var minX: Double { origin.x }
    /// Top edge.
    public var minY: Double { origin.y }
    /// Right edge.
    public var maxX: Double { origin.x + size.width }
    /// Bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// Width.
    public var width: Double { size.width }
    /// Height.
    public var height: Double { size.height }
}
