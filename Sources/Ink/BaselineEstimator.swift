#if canImport(Glibc)
import Geometry
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates the angle of a line's baseline from its lowest ink points.
///
/// The line is cut into vertical slices half a letter high; the lowest point of each slice is
/// a baseline candidate (most are: bottoms of letters; some are not: descenders, the arm of an
/// `r`, the bar of a `T`). A Hough-style search over angles picks the direction along which
/// the most candidates fall into one thin band, and a least-squares fit through that band's
/// points refines it. Ink with too little evidence (fewer than four candidates in the band,
/// or a band shorter than two letter heights) is left level rather than guessed at.
public enum BaselineEstimator {
    /// The baseline angle in radians (positive: descending to the right in y-down
    /// coordinates), clamped to ±`maxAngle`.
    public static func angle(of strokes: [Stroke], letterHeight: Double, maxAngle: Double) -> Double {
        // At most ~2,000 slices, however wide the line: the search below sorts the candidates
        // once per angle, and this keeps a hostile line of 100,000 points cheap.
        let width = strokes.bounds?.width ?? 0
        let candidates = lowestPoints(of: strokes, sliceWidth: max(letterHeight / 2, width / 2_000))
        guard candidates.count >= 4, letterHeight > 0, maxAngle > 0 else { return 0 }
        let tolerance = 0.12 * letterHeight
        let step = 0.25 * Double.pi / 180
        let steps = Int((maxAngle / step).rounded(.down))
        var best = (score: -1, angle: 0.0)
        var bins: [Int] = []
        for index in -steps...steps {
            let angle = Double(index) * step
            let score = approximateBandCount(of: candidates, angle: angle, binWidth: tolerance, bins: &bins)
            // Ties go to the angle nearer to level.
            if score > best.score || (score == best.score && abs(angle) < abs(best.angle)) {
                best = (score, angle)
            }
        }
        let band = bandCount(of: candidates, angle: best.angle, width: 2 * tolerance)
        let inliers = candidates.filter { abs(offset(of: $0, angle: best.angle) - band.centre) <= tolerance }
        guard inliers.count >= 4,
              let span = Rect(boundingPoints: inliers), span.width >= 2 * letterHeight,
              let slope = leastSquaresSlope(inliers)
        else { return 0 }
        return min(maxAngle, max(-maxAngle, atan(slope)))
    }

    /// The lowest point (largest y) in each vertical slice of `sliceWidth`.
    static func lowestPoints(of strokes: [Stroke], sliceWidth: Double) -> [Point] {
        guard let bounds = strokes.bounds, sliceWidth > 0 else { return [] }
        let sliceCount = min(100_000, Int((bounds.width / sliceWidth).rounded(.down)) + 1)
        var lowest = [Point?](repeating: nil, count: sliceCount)
        for stroke in strokes {
            for index in 0..<stroke.pointCount {
                let point = Point(x: stroke.x[index], y: stroke.y[index])
                let slice = min(sliceCount - 1, Int((point.x - bounds.minX) / sliceWidth))
                if lowest[slice].map({ point.y > $0.y }) ?? true { lowest[slice] = point }
            }
        }
        return lowest.compactMap { $0 }
    }

    /// Perpendicular offset of `point` from the line through the origin at `angle`.
    private static func offset(of point: Point, angle: Double) -> Double {
        point.y * cos(angle) - point.x * sin(angle)
    }

    /// The Hough vote for `angle`: the most candidates in two adjacent bins of `binWidth`
    /// across that direction. A histogram rather than a sort, since it runs once per angle, as
    /// long as the bins are few for the candidates; a tilted wide line spans far more bins than
    /// it has candidates (a line 10⁶ units wide, 10⁵ bins per angle), and then the candidates'
    /// bin numbers are sorted instead, which counts the same and costs the same at any width.
    static func approximateBandCount(of points: [Point], angle: Double, binWidth: Double, bins: inout [Int]) -> Int {
        let cosine = cos(angle), sine = sin(angle)
        var low = Double.infinity, high = -Double.infinity
        for point in points {
            let offset = point.y * cosine - point.x * sine
            low = min(low, offset)
            high = max(high, offset)
        }
        guard low <= high, binWidth > 0 else { return 0 }
        let span = (high - low) / binWidth
        if !(span < Double(8 * points.count + 8)) {
            // Bin numbers past 2⁵⁰ (a letter height of 10⁻¹⁴ across a wide line) share the last
            // one rather than overflow `Int`.
            let indices = points.map { Int(min(((($0.y * cosine - $0.x * sine) - low) / binWidth).rounded(.down), 0x1p50)) }.sorted()
            var best = 0, start = 0, previous = (index: Int.min, count: 0)
            while start < indices.count {
                var end = start
                while end < indices.count && indices[end] == indices[start] { end += 1 }
                let count = end - start
                best = max(best, count + (previous.index == indices[start] - 1 ? previous.count : 0))
                previous = (indices[start], count)
                start = end
            }
            return best
        }
        let count = Int(span.rounded(.down)) + 2
        bins.removeAll(keepingCapacity: true)
        bins.append(contentsOf: repeatElement(0, count: count))
        for point in points {
            let offset = point.y * cosine - point.x * sine
            bins[min(count - 1, Int((offset - low) / binWidth))] += 1
        }
        var best = 0
        for index in 0..<(count - 1) { best = max(best, bins[index] + bins[index + 1]) }
        return best
    }

    /// The most candidates within any band of `width` across `angle`, and the band's centre.
    private static func bandCount(of points: [Point], angle: Double, width: Double) -> (count: Int, centre: Double) {
        let offsets = points.map { offset(of: $0, angle: angle) }.sorted()
        var best = (count: 0, centre: 0.0)
        var start = 0
        for end in offsets.indices {
            while offsets[end] - offsets[start] > width { start += 1 }
            if end - start + 1 > best.count {
                best = (end - start + 1, (offsets[end] + offsets[start]) / 2)
            }
        }
        return best
    }

    private static func leastSquaresSlope(_ points: [Point]) -> Double? {
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / count
        let meanY = points.reduce(0) { $0 + $1.y } / count
        var sxx = 0.0, sxy = 0.0
        for point in points {
            sxx += (point.x - meanX) * (point.x - meanX)
            sxy += (point.x - meanX) * (point.y - meanY)
        }
        return sxx > 0 ? sxy / sxx : nil
    }
}
