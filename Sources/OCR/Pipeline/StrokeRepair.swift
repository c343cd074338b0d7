import Ink

/// Splits strokes where the pen was not tracked.
///
/// Some tablets keep reporting a stroke while the pen is lifted and moved (to the next word,
/// to dot an i), or end a stroke with a stray point far away. Drawn as given, each such jump is a
/// long straight line through the writing, which Tesseract reads as a dash or an underline and
/// which wrecks the line's geometry (its height, its baseline). A step far longer than the
/// stroke's usual steps is such a jump: the stroke is cut there. A piece of one or two points
/// cut off by jumps is a glitch, not a dot the writer made, and is dropped.
struct StrokeRepair {
    /// A step longer than this many times the stroke's median step...
    var medianRatio = 20.0
    /// ...and this many times its 90th-percentile step is a jump.
    var percentileRatio = 5.0
    /// Strokes with fewer points are left alone (too few steps to know what is usual).
    var minPoints = 8

    /// The repaired strokes and, for each, the index of the stroke it came from.
    struct Result {
        var strokes: [Stroke]
        var origin: [Int]
        /// Whether anything was cut.
        var changed: Bool
    }

    func repair(_ strokes: [Stroke]) -> Result {
        var result = Result(strokes: [], origin: [], changed: false)
        result.strokes.reserveCapacity(strokes.count)
        result.origin.reserveCapacity(strokes.count)
        for (index, stroke) in strokes.enumerated() {
            let cuts = jumps(in: stroke)
            guard !cuts.isEmpty else {
                result.strokes.append(stroke)
                result.origin.append(index)
                continue
            }
            result.changed = true
            var start = 0
            for end in cuts + [stroke.pointCount] {
                if end - start > 2 {
                    result.strokes.append(slice(stroke, start..<end))
                    result.origin.append(index)
                }
                start = end
            }
        }
        return result
    }

    /// Indexes of the points that start a new piece.
    func jumps(in stroke: Stroke) -> [Int] {
        let count = stroke.pointCount
        guard count >= minPoints else { return [] }
        var steps = [Double](repeating: 0, count: count - 1)
        for index in 0..<(count - 1) {
            let dx = stroke.x[index + 1] - stroke.x[index], dy = stroke.y[index + 1] - stroke.y[index]
            steps[index] = (dx * dx + dy * dy).squareRoot()
        }
        let moving = steps.filter { $0 > 0 }.sorted()
        guard moving.count >= minPoints / 2 else { return [] }
        let median = moving[moving.count / 2]
        let high = moving[Int(0.9 * Double(moving.count - 1))]
        let limit = max(medianRatio * median, percentileRatio * high)
        return steps.indices.filter { steps[$0] > limit }.map { $0 + 1 }
    }

    private func slice(_ stroke: Stroke, _ range: Range<Int>) -> Stroke {
        // Time and pressure are kept only when they cover every point.
        Stroke(x: Array(stroke.x[range]), y: Array(stroke.y[range]),
               t: stroke.t.flatMap { $0.count >= range.upperBound ? Array($0[range]) : nil },
               p: stroke.p.flatMap { $0.count >= range.upperBound ? Array($0[range]) : nil })
    }
}
