#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates the slant of handwriting as a horizontal shear factor.
///
/// Pen movements closer to vertical than to horizontal carry the slant; the
/// median of their dx/dy, weighted by |dy|, is the shear `k` such that `x' = x - k·y` makes
/// them upright. Used only when `RenderOptions.correctsSlant` is on.
public enum SlantEstimator {
    /// The shear factor (dx per unit of dy; negative for writing leaning right in y-down
    /// coordinates), clamped so the slant stays within ±`maxAngle` radians of vertical.
    public static func shear(of strokes: [Stroke], maxAngle: Double) -> Double {
        var samples: [(ratio: Double, weight: Double)] = []
        for stroke in strokes where stroke.pointCount > 1 {
            for index in 1..<stroke.pointCount {
                let dx = stroke.x[index] - stroke.x[index - 1]
                let dy = stroke.y[index] - stroke.y[index - 1]
                guard abs(dy) > abs(dx) else { continue }
                samples.append((dx / dy, abs(dy)))
            }
        }
        guard !samples.isEmpty else { return 0 }
        samples.sort { $0.ratio < $1.ratio }
        let half = samples.reduce(0) { $0 + $1.weight } / 2
        var cumulative = 0.0
        var median = 0.0
        for sample in samples {
            cumulative += sample.weight
            if cumulative >= half {
                median = sample.ratio
                break
            }
        }
        let limit = tan(min(maxAngle, 1.5))
        return min(limit, max(-limit, median))
    }
}
