#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry

// The measures of a stroke the classifier decides from: how straight it is, where it turns back.
extension GestureClassifier {
    /// The farthest any point lies from the line through the stroke's ends.
    static func maxDeviation(_ stroke: Stroke) -> Double {
        let count = stroke.pointCount
        let (x0, y0) = (stroke.x[0], stroke.y[0])
        let (dx, dy) = (stroke.x[count - 1] - x0, stroke.y[count - 1] - y0)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return .infinity }
        var farthest = 0.0
        for index in 0..<count {
            farthest = max(farthest, abs((stroke.x[index] - x0) * dy - (stroke.y[index] - y0) * dx) / length)
        }
        return farthest
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }

    static func tangent(degrees: Double) -> Double {
        let radians = degrees * Double.pi / 180
        return sin(radians) / cos(radians)
    }
}

/// The measures of one stroke both gestures are decided from.
struct StrokeShape {
    /// Where x turned back (with hysteresis), with the first and last x: passes run between them.
    var turningPoints: [Double]
    /// The length of the path.
    var path: Double
    /// The length of the path's projection on x.
    var xPath: Double

    /// How far each pass goes in x.
    var passSpans: [Double] {
        zip(turningPoints, turningPoints.dropFirst()).map { abs($1 - $0) }
    }

    init(_ stroke: Stroke, hysteresis: Double) {
        let count = stroke.pointCount
        var path = 0.0, xPath = 0.0
        for index in 1..<count {
            let dx = stroke.x[index] - stroke.x[index - 1], dy = stroke.y[index] - stroke.y[index - 1]
            path += (dx * dx + dy * dy).squareRoot()
            xPath += abs(dx)
        }
        self.path = path
        self.xPath = xPath
        // Reversals: the running extreme in the current direction, kept until x comes back from it
        // by more than the hysteresis (a tremor is no reversal).
        var turns = [stroke.x[0]]
        var direction = 0.0
        var extreme = stroke.x[0]
        for index in 1..<count {
            let x = stroke.x[index]
            if direction == 0 {
                if abs(x - extreme) > hysteresis { direction = x > extreme ? 1 : -1; extreme = x }
            } else if (x - extreme) * direction > 0 {
                extreme = x
            } else if abs(x - extreme) > hysteresis {
                turns.append(extreme)
                direction = -direction
                extreme = x
            }
        }
        if direction != 0 { turns.append(extreme) }
        turningPoints = turns
    }
}

/// A stroke that runs one way in x, as y of x (the first point at a given x).
struct MonotoneLine {
    private var xs: [Double]
    private var ys: [Double]

    init(_ stroke: Stroke) {
        let count = stroke.pointCount
        var pairs = (0..<count).map { (stroke.x[$0], stroke.y[$0]) }
        pairs.sort { $0.0 < $1.0 }
        xs = pairs.map(\.0)
        ys = pairs.map(\.1)
    }

    func y(at x: Double) -> Double? {
        guard let first = xs.first, let last = xs.last, x >= first, x <= last else { return nil }
        var low = 0, high = xs.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if xs[mid] <= x { low = mid } else { high = mid }
        }
        let span = xs[high] - xs[low]
        guard span > 0 else { return ys[low] }
        let f = (x - xs[low]) / span
        return ys[low] + f * (ys[high] - ys[low])
    }
}
