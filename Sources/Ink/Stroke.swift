import Geometry

/// One pen-down trace: parallel arrays of board coordinates, optional times and pressures.
///
/// Coordinates are in board units (y down, any offset and scale). `t` is in milliseconds and
/// `p` in 0...1 when present. Strokes from `InkDecoder` or `InkCodec` always have at least one
/// point and equal array lengths; code that builds strokes by hand should keep to that too,
/// and the geometry here only looks at the first `pointCount` entries to stay safe if not.
public struct Stroke: Sendable, Equatable {
    /// Horizontal board coordinates, one per point.
    public var x: [Double]
    /// Vertical board coordinates (y down), one per point.
    public var y: [Double]
    /// Times in milliseconds, non-decreasing, when the client sent them.
    public var t: [Double]?
    /// Pen pressures in 0...1, when the client sent them.
    public var p: [Double]?

    /// A stroke from its channels.
    public init(x: [Double], y: [Double], t: [Double]? = nil, p: [Double]? = nil) {
        self.x = x
        self.y = y
        self.t = t
        self.p = p
    }

    /// A stroke through `points`, without time or pressure.
    public init(points: [Point]) {
        self.init(x: points.map(\.x), y: points.map(\.y))
    }

    /// The number of points (the shorter of `x` and `y`).
    public var pointCount: Int { min(x.count, y.count) }

    /// The points as `Point`s.
    public var points: [Point] { (0..<pointCount).map { Point(x: x[$0], y: y[$0]) } }

    /// The bounding box of the points, or `nil` for a stroke without points.
    public var bounds: Rect? {
        let count = pointCount
        guard count > 0 else { return nil }
        var minX = x[0], maxX = x[0], minY = y[0], maxY = y[0]
        for index in 1..<count {
            let px = x[index], py = y[index]
            if px < minX { minX = px } else if px > maxX { maxX = px }
            if py < minY { minY = py } else if py > maxY { maxY = py }
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// This stroke with every point mapped by `transform` (time and pressure kept).
    public func applying(_ transform: AffineTransform) -> Stroke {
        var mappedX = [Double](repeating: 0, count: pointCount)
        var mappedY = mappedX
        for index in 0..<pointCount {
            let px = x[index], py = y[index]
            mappedX[index] = transform.a * px + transform.c * py + transform.tx
            mappedY[index] = transform.b * px + transform.d * py + transform.ty
        }
        return Stroke(x: mappedX, y: mappedY, t: t, p: p)
    }
}

extension Collection<Stroke> {
    /// The bounding box of all points of all strokes, or `nil` when there are none.
    public var bounds: Rect? {
        var result: Rect?
        for stroke in self {
            guard let box = stroke.bounds else { continue }
            result = result.map { $0.union(box) } ?? box
        }
        return result
    }

    /// The total number of points.
    public var totalPointCount: Int { reduce(0) { $0 + $1.pointCount } }
}
