import Geometry
import Ink

/// Draws in the tall marks of a number: slashes and brackets far taller than its digits.
///
/// Some writers draw the slashes of a date and the brackets of a phone number two or three
/// times as tall as the digits. A line image is scaled to the height of its whole ink, so the
/// digits come out a third or half the height the network reads best ("4/27/92" drawn 51 × 38
/// pixels read as nothing). Here, in each line of two or more strokes, the digits' height is the
/// median height of the strokes at least `bandRatio` of the median stroke (so dots, hyphens and
/// flat bars do not count, nor a few very tall marks), and every stroke taller than `tallRatio`
/// times it is squeezed vertically to `targetRatio` times it, about the median vertical centre
/// of the other strokes (the digits' band). Order, x and time are kept; only the
/// line images change (`PreparedInk.imageStrokes`), not the boxes the ink is measured by.
///
/// Measured first on ink changed the same way (`training/tall_strokes.py`), then through the
/// service with a network that never met the collection that draws such marks
/// (training/RUNS.md, "Levers").
struct TallMarks {
    /// Strokes at least this share of the median stroke's height set the digits' height.
    var bandRatio = 0.4
    /// A stroke taller than this many digit heights is squeezed ...
    var tallRatio = 1.35
    /// ... to this many.
    var targetRatio = 1.15

    /// Squeezes the tall strokes of `line` (indexes into `strokes`) in place; the number of
    /// strokes squeezed.
    @discardableResult
    func squeeze(_ strokes: inout [Stroke], line: [Int]) -> Int {
        let boxes = line.compactMap { index in strokes[index].bounds.map { (index: index, box: $0) } }
        let typical = Self.median(boxes.map(\.box.height))
        guard boxes.count >= 2, typical > 0 else { return 0 }
        let digit = Self.median(boxes.map(\.box.height).filter { $0 >= bandRatio * typical })
        let band = boxes.filter { $0.box.height >= bandRatio * typical && $0.box.height <= tallRatio * digit }
        guard !band.isEmpty else { return 0 }
        let centre = Self.median(band.map(\.box.center.y))
        var squeezed = 0
        for (index, box) in boxes where box.height > tallRatio * digit {
            let scale = targetRatio * digit / box.height
            strokes[index].y = strokes[index].y.map { centre + ($0 - centre) * scale }
            squeezed += 1
        }
        return squeezed
    }

    /// The median of `values` (the mean of the middle two of an even count), as Python's
    /// `statistics.median`, so the service and the measurement agree.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
