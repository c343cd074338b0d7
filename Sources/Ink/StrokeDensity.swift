import Geometry

/// How densely ink is written: strokes per line height of written length (each line's width in
/// its own height, summed over the lines; a line narrower than it is high counts as one height).
///
/// Hangul is written in square syllables about as wide as the line is high, of several short
/// strokes each; Latin handwriting in letters of one or two strokes, about half a line height
/// wide each. With lines found as for Hangul (syllable blocks grouped), held-out Latin handwriting
/// and held-out Korean hands (drawn from fonts) lie mostly on either side of about three strokes
/// per height (training/RUNS.md, "Reading without a language").
public enum StrokeDensity {
    /// Strokes per line height over `lines` (stroke indexes, as `LineSegmenter.segment` gives
    /// them); 0 without ink.
    public static func strokesPerLineHeight(_ strokes: [Stroke], lines: [[Int]]) -> Double {
        var length = 0.0, count = 0
        for line in lines {
            var box: Rect?
            var drawn = 0
            for index in line {
                guard let bounds = strokes[index].bounds else { continue }
                box = box.map { $0.union(bounds) } ?? bounds
                drawn += 1
            }
            guard let box, box.height > 0 else { continue }
            length += max(box.width / box.height, 1)
            count += drawn
        }
        return length > 0 ? Double(count) / length : 0
    }

    /// The same over the lines `segmenter` finds.
    public static func strokesPerLineHeight(_ strokes: [Stroke], segmenter: LineSegmenter = LineSegmenter()) -> Double {
        strokesPerLineHeight(strokes, lines: segmenter.segment(strokes))
    }
}
