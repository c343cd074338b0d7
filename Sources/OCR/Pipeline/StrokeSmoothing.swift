import Glibc
import Ink

/// Smooths ink from a coarse digitiser.
///
/// A low-resolution tablet (or small writing with a mouse) reports points on a grid only a
/// few units finer than the letters: each curve becomes a staircase, and at Tesseract's line
/// height the steps are a large part of a letter. On held-out writers' ink snapped to a grid of
/// an eighth of its height, words read at 25 % CER instead of 13 %, and numbers at 16 % instead of
/// 9 %; smoothed as here, at 16 % and 13 % (Models/README.md, "Levers").
///
/// Ink is coarse when its points lie on a grid (at least 90 % of the non-zero coordinate steps
/// between consecutive points are within a tenth of a multiple of the grid step, their 10th
/// percentile) whose step is more than `coarseRatio` of the ink's height (the 5th to 95th
/// percentile of y over all points). Sparse points of a fine digitiser are not on a grid and
/// are left alone. Coarse ink is resampled along each stroke at a third of
/// the grid step and smoothed with a Gaussian of `sigmaRatio` times the ink height; a stroke's
/// first and last points stay where they were. Fine ink, which is all the training corpus
/// has, is returned as it is.
struct StrokeSmoothing {
    /// Ink whose grid step is more than this share of its height is coarse.
    var coarseRatio = 1.0 / 24
    /// The Gaussian's standard deviation, as a share of the ink's height.
    var sigmaRatio = 1.0 / 12

    /// The smoothed strokes when `strokes` are coarse (one for each, in order), else `nil`.
    func smoothed(_ strokes: [Stroke]) -> [Stroke]? {
        guard let grid = gridStep(strokes), let height = inkHeight(strokes), height > 0,
              grid > coarseRatio * height else { return nil }
        let sigma = sigmaRatio * height
        return strokes.map { smooth($0, spacing: grid / 3, sigma: sigma) }
    }

    /// The grid the points lie on: the 10th percentile of the non-zero steps of x and y between
    /// consecutive points, when at least 90 % of those steps are multiples of it; else `nil`.
    func gridStep(_ strokes: [Stroke]) -> Double? {
        var steps: [Double] = []
        for stroke in strokes where stroke.pointCount > 1 {
            for index in 1..<stroke.pointCount {
                let dx = abs(stroke.x[index] - stroke.x[index - 1]), dy = abs(stroke.y[index] - stroke.y[index - 1])
                if dx > 0 { steps.append(dx) }
                if dy > 0 { steps.append(dy) }
            }
        }
        guard steps.count >= 10 else { return nil }
        steps.sort()
        let grid = steps[steps.count / 10]
        let onGrid = steps.count { step in
            let multiple = step / grid
            return abs(multiple - multiple.rounded()) < 0.1
        }
        return Double(onGrid) >= 0.9 * Double(steps.count) ? grid : nil
    }

    /// The 5th to 95th percentile of y over all points.
    func inkHeight(_ strokes: [Stroke]) -> Double? {
        var ys = strokes.flatMap { $0.y.prefix($0.pointCount) }
        guard ys.count >= 2 else { return nil }
        ys.sort()
        return ys[max(Int(Double(ys.count) * 0.95) - 1, 0)] - ys[Int(Double(ys.count) * 0.05)]
    }

    /// `stroke` resampled every `spacing` along its length and smoothed with a Gaussian of
    /// `sigma` (both in board units); time and pressure are interpolated with the points.
    func smooth(_ stroke: Stroke, spacing: Double, sigma: Double) -> Stroke {
        let count = stroke.pointCount
        guard count > 2, spacing > 0, sigma > 0 else { return stroke }
        // Resample: positions along the stroke at every `spacing`, plus the last point.
        var samples: [(segment: Int, fraction: Double)] = [(0, 0)]
        var carried = 0.0
        for index in 0..<(count - 1) {
            let dx = stroke.x[index + 1] - stroke.x[index], dy = stroke.y[index + 1] - stroke.y[index]
            let length = (dx * dx + dy * dy).squareRoot()
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
