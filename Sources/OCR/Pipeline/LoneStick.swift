import Geometry
import Ink

/// A 1 in a digits field that the network reads as nothing.
///
/// Written as one bowed stroke, a 1 often reads as a bracket ("(" at 0.92), which the `digits`
/// hint drops as a separator, and the field came back empty: 6 of the 31 errors on 1,952
/// held-out persons' and collections' digits, every one a 1; of the training persons' sticks read
/// as nothing, 21 of 23 were 1s (training/RUNS.md, "A lone stick in a digits field"). So when a lone glyph under
/// `digits` reads as nothing and is one stroke drawn as a stick (at most `maxWidth` of its height
/// wide, its ends at least `minEndsApart` of its height apart: not a narrow loop), it is read as 1,
/// at `confidence`: a reading from its shape, not the network's. When the ink is a digit, a digit is
/// never further from it than nothing is; a stray tick of any size in a digits field is read as 1.
enum LoneStick {
    static let maxWidth = 0.5
    static let minEndsApart = 0.5
    static let confidence = 0.5

    /// The line "1" for `strokes` (indexes of the request's strokes in `origin`), or nil when they
    /// are not one stroke drawn as a stick.
    static func one(_ strokes: [Stroke], origin: [Int]) -> Recognition.Line? {
        let drawn = strokes.indices.filter { strokes[$0].bounds != nil }
        guard drawn.count == 1, let index = drawn.first, let box = strokes[index].bounds, box.height > 0 else { return nil }
        let stroke = strokes[index]
        let last = stroke.pointCount - 1
        let ends = Point(x: stroke.x[0], y: stroke.y[0]).distance(to: Point(x: stroke.x[last], y: stroke.y[last]))
        guard box.width <= maxWidth * box.height, ends >= minEndsApart * box.height else { return nil }
        let word = Recognition.Word(text: "1", confidence: confidence, box: box, strokes: [origin[index]])
        return Recognition.Line(text: "1", confidence: confidence, box: box, words: [word])
    }
}
