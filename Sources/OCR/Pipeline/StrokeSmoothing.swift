import Geometry
import Glibc
import Ink

/// Smooths ink from a coarse digitiser: points on a coarse grid, or far apart.
///
/// A low-resolution tablet (or small writing with a mouse) reports points on a grid only a
/// few units finer than the letters: each curve becomes a staircase, and at Tesseract's line
/// height the steps are a large part of a letter. On held-out writers' ink snapped to a grid of
/// an eighth of its height, words read at 25 % CER instead of 13 %, and numbers at 16 % instead of
/// 9 %; smoothed as here, at 16 % and 13 % (training/RUNS.md, "Levers").
///
/// Ink is coarse when its points lie on a grid (at least 90 % of the non-zero coordinate steps
/// between consecutive points are within a tenth of a multiple of the grid step, their 10th
/// percentile) whose step is more than `coarseRatio` of the ink's height (the 5th to 95th
/// percentile of y over all points). Sparse points of a fine digitiser are not on a grid and
/// are left alone. Coarse ink is resampled along each stroke at a third of
/// the grid step and smoothed with a Gaussian of `sigmaRatio` times the ink height; a stroke's
/// first and last points stay where they were.
///
/// A digitiser that samples slowly (or a fast hand) leaves points far apart, and drawn as
/// straight segments a curve becomes a polygon: held-out writers' ink with every sixth point
/// kept read words at 20 % CER instead of 13 %, numbers at 16 % instead of 9 %. Ink whose median
/// step between points is longer than `sparseRatio` of its height gets a centripetal
/// Catmull-Rom curve through its points (17 % and 13 %). No held-out sample as written is
/// that sparse.
///
/// Ink that is neither, which is all the training corpus has, is returned as it is.
struct StrokeSmoothing {
    /// Ink whose grid step is more than this share of its height is coarse.
    var coarseRatio = 1.0 / 24
    /// The Gaussian's standard deviation, as a share of the ink's height.
    var sigmaRatio = 1.0 / 12
    /// Ink whose median step is longer than this share of its height is sparse.
    var sparseRatio = 1.0 / 5
    /// The step of the curve drawn through sparse points, as a share of the ink's height.
    var curveStepRatio = 1.0 / 40
    /// Ink of more points is left alone (no digitiser this coarse sends so many), and no
    /// stroke comes out with more than 8 times its points: the work stays bounded whatever
    /// the request.
    var maxPoints = 20_000

    /// The smoothed strokes when `strokes` are coarse or sparse (one for each, in order), else
    /// `nil`.
    func smoothed(_ strokes: [Stroke]) -> [Stroke]? {
        guard strokes.totalPointCount <= maxPoints else { return nil }
        let sample = Sample(strokes)
        guard let height = sample.inkHeight, height > 0 else { return nil }
        if let grid = sample.gridStep, grid > coarseRatio * height {
            let sigma = sigmaRatio * height
            return strokes.map { smooth($0, spacing: grid / 3, sigma: sigma) }
        }
        if let step = sample.medianStep, step > sparseRatio * height {
            return strokes.map { curve(through: $0, step: curveStepRatio * height) }
        }
        return nil
    }

    /// What the decisions look at, gathered in one pass over every k-th point (about 512 in
    /// all, so that deciding costs little on every request whatever the ink's size): the y of
    /// each, and the step from it to the next point of its stroke.
    struct Sample {
        /// The y of the points looked at.
        var ys: [Double] = []
        /// The non-zero |dx| and |dy| of their steps.
        var axisSteps: [Double] = []
        /// The non-zero lengths of their steps.
        var lengths: [Double] = []

        init(_ strokes: [Stroke]) {
            let every = max(1, strokes.totalPointCount / 512)
            for stroke in strokes {
                let count = stroke.pointCount
                for index in stride(from: 0, to: count, by: every) {
                    ys.append(stroke.y[index])
                    guard index + 1 < count else { continue }
                    let dx = stroke.x[index + 1] - stroke.x[index], dy = stroke.y[index + 1] - stroke.y[index]
                    if dx != 0 { axisSteps.append(abs(dx)) }
                    if dy != 0 { axisSteps.append(abs(dy)) }
                    let length = (dx * dx + dy * dy).squareRoot()
                    if length > 0 { lengths.append(length) }
                }
            }
            ys.sort()
            axisSteps.sort()
            lengths.sort()
        }

        /// The 5th to 95th percentile of y.
        var inkHeight: Double? {
            guard ys.count >= 2 else { return nil }
            return ys[max(Int(Double(ys.count) * 0.95) - 1, 0)] - ys[Int(Double(ys.count) * 0.05)]
        }

        /// The grid the points lie on: the 10th percentile of the axis steps, when at least
        /// 90 % of them are multiples of it (within a tenth); else `nil`.
        var gridStep: Double? {
            guard axisSteps.count >= 10 else { return nil }
            let grid = axisSteps[axisSteps.count / 10]
            let onGrid = axisSteps.count { step in
                let multiple = step / grid
                return abs(multiple - multiple.rounded()) < 0.1
            }
            return Double(onGrid) >= 0.9 * Double(axisSteps.count) ? grid : nil
        }

        /// The median step length (at least 5 steps).
        var medianStep: Double? {
            lengths.count >= 5 ? lengths[lengths.count / 2] : nil
        }
    }

    /// A centripetal Catmull-Rom curve through the points of `stroke`, each segment cut into
    /// pieces of about `step` (at most 8); time and pressure are interpolated along each
    /// segment. The stroke's points stay on the curve.
    func curve(through stroke: Stroke, step: Double) -> Stroke {
        let count = stroke.pointCount
        guard count > 2, step > 0 else { return stroke }
        let points = stroke.points
        var x = [points[0].x], y = [points[0].y]
        var t = stroke.t.flatMap { $0.count >= count ? [$0[0]] : nil }
        var p = stroke.p.flatMap { $0.count >= count ? [$0[0]] : nil }
        for index in 0..<(count - 1) {
            let p0 = points[max(index - 1, 0)], p1 = points[index], p2 = points[index + 1], p3 = points[min(index + 2, count - 1)]
            let length = ((p2.x - p1.x) * (p2.x - p1.x) + (p2.y - p1.y) * (p2.y - p1.y)).squareRoot()
            // In doubles first: a step of 10⁻¹⁴ over a long segment is past `Int.max`.
            let pieces = Int(min(8, max(1, (length / step).rounded(.up))))
            // Knots spaced by the square root of the distances (centripetal).
            func knot(_ a: Point, _ b: Point) -> Double {
                max(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot(), 1e-9).squareRoot()
            }
            let t0 = 0.0, t1 = t0 + knot(p0, p1), t2 = t1 + knot(p1, p2), t3 = t2 + knot(p2, p3)
            func lerp(_ a: Point, _ b: Point, _ ta: Double, _ tb: Double, _ u: Double) -> Point {
                let w = (u - ta) / (tb - ta)
                return Point(x: a.x + (b.x - a.x) * w, y: a.y + (b.y - a.y) * w)
            }
            for piece in 1...pieces {
                let fraction = Double(piece) / Double(pieces)
                let u = t1 + (t2 - t1) * fraction
                let a1 = lerp(p0, p1, t0, t1, u), a2 = lerp(p1, p2, t1, t2, u), a3 = lerp(p2, p3, t2, t3, u)
                let b1 = lerp(a1, a2, t0, t2, u), b2 = lerp(a2, a3, t1, t3, u)
                let point = piece == pieces ? p2 : lerp(b1, b2, t1, t2, u)
                x.append(point.x)
                y.append(point.y)
                if let times = stroke.t, t != nil {
                    t?.append(times[index] + (times[index + 1] - times[index]) * fraction)
                }
                if let pressures = stroke.p, p != nil {
                    p?.append(pressures[index] + (pressures[index + 1] - pressures[index]) * fraction)
                }
            }
        }
        return Stroke(x: x, y: y, t: t, p: p)
    }

    /// `stroke` resampled every `spacing` (or further apart, for at most 8 times its points)
    /// along its length and smoothed with a Gaussian of `sigma` (both in board units); time and
    /// pressure are interpolated with the points.
    func smooth(_ stroke: Stroke, spacing requested: Double, sigma: Double) -> Stroke {
        let count = stroke.pointCount
        guard count > 2, requested > 0, sigma > 0 else { return stroke }
        let lengths = (0..<(count - 1)).map { index in
            let dx = stroke.x[index + 1] - stroke.x[index], dy = stroke.y[index + 1] - stroke.y[index]
            return (dx * dx + dy * dy).squareRoot()
        }
        let spacing = max(requested, lengths.reduce(0, +) / Double(8 * count))
        // Resample: positions along the stroke at every `spacing`, plus the last point.
        var samples: [(segment: Int, fraction: Double)] = [(0, 0)]
        var carried = 0.0
        for (index, length) in lengths.enumerated() {
            guard length > 0 else { continue }
            var along = spacing - carried
            while along <= length {
                samples.append((index, along / length))
                along += spacing
            }
            carried = length - (along - spacing)
        }
        samples.append((count - 2, 1))
        func channel(_ values: [Double]) -> [Double] {
            samples.map { values[$0.segment] + (values[$0.segment + 1] - values[$0.segment]) * $0.fraction }
        }
        let x = channel(Array(stroke.x.prefix(count))), y = channel(Array(stroke.y.prefix(count)))
        let t = stroke.t.flatMap { $0.count >= count ? channel($0) : nil }
        let p = stroke.p.flatMap { $0.count >= count ? channel($0) : nil }
        // Gaussian along the resampled points, the ends held.
        let radius = max(1, Int((3 * sigma / spacing).rounded(.up)))
        let weights = (-radius...radius).map { offset -> Double in
            let distance = Double(offset) * spacing / sigma
            return exp(-0.5 * distance * distance)
        }
        let last = x.count - 1
        var smoothX = x, smoothY = y
        for index in 1..<last {
            var sumX = 0.0, sumY = 0.0, total = 0.0
            for (offset, weight) in zip(-radius...radius, weights) {
                let source = min(max(index + offset, 0), last)
                sumX += x[source] * weight
                sumY += y[source] * weight
                total += weight
            }
            smoothX[index] = sumX / total
            smoothY[index] = sumY / total
        }
        return Stroke(x: smoothX, y: smoothY, t: t, p: p)
    }
}
