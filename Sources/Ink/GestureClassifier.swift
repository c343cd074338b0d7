#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry

/// A pen gesture that edits text instead of writing it.
public enum InkGesture: String, Sendable, Hashable, CaseIterable {
    /// A zig-zag or scribble back and forth along the text: deletes the words it covers.
    case scratchOut
    /// One near-straight stroke through the middle of a run of text: deletes the words it crosses.
    case strikeThrough
}

/// One character of the text under the ink, as the caller laid it out: its box in board
/// coordinates (y down; from the line's ascent to its descent, from where the character starts
/// to where it ends) and the word it belongs to (any number the caller chooses; words are
/// answered by it).
public struct GestureGlyph: Sendable, Hashable {
    /// The character's box in board coordinates.
    public var box: Rect
    /// The caller's number of the character's word.
    public var word: Int

    /// Creates a glyph.
    public init(box: Rect, word: Int) {
        self.box = box
        self.word = word
    }
}

/// What the ink is: writing, or a gesture with the words it edits.
public struct GestureClassification: Sendable, Hashable {
    /// The gesture, or nil for writing.
    public var gesture: InkGesture?
    /// The words the gesture deletes (the callers' numbers, ascending); empty for writing.
    public var words: [Int]

    /// Ink that is writing.
    public static let writing = GestureClassification(gesture: nil, words: [])

    /// Creates a classification.
    public init(gesture: InkGesture?, words: [Int]) {
        self.gesture = gesture
        self.words = words
    }
}

/// Tells pen gestures (scratch-out, strike-through) from writing by the ink's geometry alone,
/// given the boxes of the characters under it. Pure and fast: no recognition, no state.
///
/// The text is taken to run along +x (stickers are not rotated). Both gestures are one stroke:
/// ink of several strokes is always writing, and so is ink that covers no character.
///
/// - **Scratch-out**: the stroke goes back and forth along the text. Its reversals in x are found
///   with hysteresis; at least ``Thresholds/minScratchReversals`` of them must start passes that
///   each span at least ``Thresholds/longPassFraction`` of the ink's width, those long passes
///   must be most of all passes, its path in x must be several times its width
///   (``Thresholds/minScratchXPathRatio``) and mostly horizontal
///   (``Thresholds/minScratchHorizontality``), and it must be longer than tall and not much
///   taller than the text.
///   Cursive writing ("mmmm", "wwww", "minimum") moves on: its passes back are short against
///   its width. A tall loop retraced ("0", "3") moves as much in y as in x.
/// - **Strike-through**: the stroke runs forward in x without turning back, its path close to
///   its chord (``Thresholds/maxStrikeStraightness``), its chord within
///   ``Thresholds/maxStrikeSlantDegrees`` of the text line, at least as long as the text is
///   tall, and it passes through the middle band of the words it crosses.
///
/// Words: a scratch-out deletes the words whose width lies mostly (``Thresholds/minWordCoverage``)
/// between its typical left and right turning points and whose line it overlaps (over several
/// lines, only the lines it covers nearly as much as the one it covers most,
/// ``Thresholds/minScratchLineShare``); a
/// strike-through the words whose width it crosses mostly inside their middle band.
///
/// Every threshold errs on the side of writing: a false gesture destroys text, a missed one
/// leaves ink the writer removes with one undo.
public struct GestureClassifier: Sendable {
    /// The limits of the classification; the defaults are the service's.
    public struct Thresholds: Sendable, Hashable {
        /// Fewest x reversals between long passes of a scratch-out.
        public var minScratchReversals = 3
        /// A long pass spans at least this fraction of the ink's width.
        public var longPassFraction = 0.5
        /// Long passes are at least this fraction of all passes.
        public var minLongPassShare = 0.6
        /// The path in x is at least this many times the ink's width.
        public var minScratchXPathRatio = 2.4
        /// The path in x is at least this fraction of the whole path.
        public var minScratchHorizontality = 0.7
        /// A scratch-out is at most this many text heights tall (across its axis).
        public var maxScratchHeightInLines = 2.2
        /// A scratch-out is at most this many times as tall as it is long (across and along its
        /// axis): it runs along the text, where a retraced "3" or "8" is taller than wide.
        public var maxScratchAspect = 0.9
        /// A scratch-out's axis is within this angle of the text line.
        public var maxScratchSlantDegrees = 25.0
        /// The path is at most this many times the chord of a strike-through (a wavy line is one).
        public var maxStrikeStraightness = 1.3
        /// A strike-through strays at most this many text heights from its chord.
        public var maxStrikeDeviationInLines = 0.2
        /// The path in x is at most this many times the width of a strike-through (no turning back).
        public var maxStrikeXPathRatio = 1.08
        /// A strike-through's chord is within this angle of the text line.
        public var maxStrikeSlantDegrees = 20.0
        /// A strike-through is at least this many text heights long.
        public var minStrikeLengthInLines = 1.0
        /// The middle band of a line, as fractions of its glyph box from the top: where a
        /// strike-through crosses the middle of a word (above it is over the text, below it an underline).
        public var middleBand: ClosedRange<Double> = 0.3...0.75
        /// The part of a line's glyph box a scratch-out must reach into, as fractions from the top.
        public var scratchBand: ClosedRange<Double> = 0.15...0.85
        /// Over words on several lines, a scratch-out deletes those of a line only when it covers
        /// at least this fraction of the height of the line it covers most.
        public var minScratchLineShare = 0.6
        /// A word is deleted when the gesture covers at least this fraction of its width.
        public var minWordCoverage = 0.6
        /// Reversals are counted once x turns back by this fraction of the ink's width.
        public var reversalHysteresis = 0.1

        /// The service's thresholds.
        public init() {}
    }

    /// The limits in use.
    public var thresholds: Thresholds

    /// A classifier with `thresholds`.
    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    /// Classifies `strokes` written over `glyphs` (the characters of one text, board coordinates).
    public func classify(_ strokes: [Stroke], over glyphs: [GestureGlyph]) -> GestureClassification {
        // Two points are enough for a straight line (a client may keep only a line's ends).
        guard strokes.count == 1, let stroke = strokes.first, stroke.pointCount >= 2,
              let bounds = stroke.bounds, !glyphs.isEmpty else { return .writing }
        let lineHeight = glyphs.map(\.box.height).median
        guard lineHeight > 0, bounds.width > 0 else { return .writing }
        // Only characters under the ink count.
        let near = glyphs.filter { $0.box.intersects(bounds.insetBy(dx: -1e-9, dy: -1e-9)) }
        guard !near.isEmpty else { return .writing }
        if let words = scratchOut(stroke, lineHeight: lineHeight, glyphs: glyphs), !words.isEmpty {
            return GestureClassification(gesture: .scratchOut, words: words)
        }
        let shape = StrokeShape(stroke, hysteresis: thresholds.reversalHysteresis * bounds.width)
        if let words = strikeThrough(shape, stroke: stroke, bounds: bounds, lineHeight: lineHeight, glyphs: glyphs),
           !words.isEmpty {
            return GestureClassification(gesture: .strikeThrough, words: words)
        }
        return .writing
    }

    /// The words a scratch-out deletes, or nil when the stroke is not one.
    ///
    /// Measured along the stroke's own axis (its points' principal direction, when it has a clear
    /// one within ``Thresholds/maxScratchSlantDegrees`` of the text line; else the text line): a
    /// scratch-out drawn at a slant turns back as far along its axis as a level one.
    private func scratchOut(_ stroke: Stroke, lineHeight: Double, glyphs: [GestureGlyph]) -> [Int]? {
        let t = thresholds
        let axis = Self.axis(of: stroke, maxDegrees: t.maxScratchSlantDegrees)
        let (cos, sin) = (Glibc.cos(axis.angle), Glibc.sin(axis.angle))
        // The stroke turned onto its axis, about its centroid.
        let level = Stroke(
            x: (0..<stroke.pointCount).map { cos * (stroke.x[$0] - axis.centre.x) + sin * (stroke.y[$0] - axis.centre.y) },
            y: (0..<stroke.pointCount).map { -sin * (stroke.x[$0] - axis.centre.x) + cos * (stroke.y[$0] - axis.centre.y) })
        guard let bounds = level.bounds, bounds.width > 0 else { return nil }
        let shape = StrokeShape(level, hysteresis: t.reversalHysteresis * bounds.width)
        let width = bounds.width
        let spans = shape.passSpans
        let long = spans.filter { $0 >= t.longPassFraction * width }.count
        guard long - 1 >= t.minScratchReversals,
              Double(long) >= t.minLongPassShare * Double(spans.count),
              shape.xPath >= t.minScratchXPathRatio * width,
              shape.path > 0, shape.xPath / shape.path >= t.minScratchHorizontality,
              bounds.height <= t.maxScratchHeightInLines * lineHeight,
              bounds.height <= t.maxScratchAspect * width
        else { return nil }
        // The extent it scratches: where its passes typically turn, left and right.
        let turns = shape.turningPoints
        var lefts: [Double] = [], rights: [Double] = []
        for index in turns.indices {
            let neighbour = index + 1 < turns.count ? turns[index + 1] : turns[index - 1]
            // A turning point is a left one when x goes on to the right from it (or came from there).
            if turns[index] <= neighbour { lefts.append(turns[index]) } else { rights.append(turns[index]) }
        }
        guard !lefts.isEmpty, !rights.isEmpty else { return nil }
        let left = Self.mean(lefts), right = Self.mean(rights)
        guard right > left else { return nil }
        // Back on the board: the axis from `left` to `right`, and how far the scratch reaches across it.
        let from = axis.centre.x + left * cos, to = axis.centre.x + right * cos
        func across(_ box: Rect) -> (top: Double, bottom: Double) {
            let axisY = axis.centre.y + (box.center.x - axis.centre.x) * sin / cos
            return (axisY + bounds.minY, axisY + bounds.maxY)
        }
        let words = Self.words(in: glyphs, covering: from...to, minimum: t.minWordCoverage) { box in
            // Across its axis, the scratch reaches into the middle band of the word (not only over or under it).
            let reach = across(box)
            let band = (top: box.minY + t.scratchBand.lowerBound * box.height,
                        bottom: box.minY + t.scratchBand.upperBound * box.height)
            return reach.top <= band.bottom && reach.bottom >= band.top
        }
        // Over several lines, only those it covers nearly as much as the one it covers most: a
        // scratch-out over one line that runs a little into the next keeps the next line's words.
        return Self.onLinesCovered(words, glyphs: glyphs, share: t.minScratchLineShare) { box in
            let reach = across(box)
            return max(0, min(reach.bottom, box.maxY) - max(reach.top, box.minY)) / box.height
        }
    }

    /// Of `words`, those on the lines whose height the scratch-out covers (`coverage` of a word's
    /// box, the most of any word on the line) for at least `share` of the most it covers of any
    /// line. Words on one line are all kept. A line is the words whose boxes share their top.
    private static func onLinesCovered(_ words: [Int], glyphs: [GestureGlyph], share: Double,
                                       coverage: (Rect) -> Double) -> [Int] {
        let wanted = Set(words)
        var boxes: [Int: Rect] = [:]
        for glyph in glyphs where wanted.contains(glyph.word) {
            boxes[glyph.word] = boxes[glyph.word].map { $0.union(glyph.box) } ?? glyph.box
        }
        var lines: [Double: Double] = [:]
        for box in boxes.values { lines[box.minY] = max(lines[box.minY] ?? 0, coverage(box)) }
        guard lines.count > 1, let best = lines.values.max(), best > 0 else { return words }
        return words.filter { word in
            guard let box = boxes[word], let covered = lines[box.minY] else { return false }
            return covered >= share * best
        }
    }

    /// The principal direction of the stroke's points (radians, y down) and their centroid; the
    /// text line (0) when the points have no clear direction or it is steeper than `maxDegrees`.
    static func axis(of stroke: Stroke, maxDegrees: Double) -> (angle: Double, centre: Point) {
        let n = Double(stroke.pointCount)
        let cx = stroke.x.prefix(stroke.pointCount).reduce(0, +) / n
        let cy = stroke.y.prefix(stroke.pointCount).reduce(0, +) / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for index in 0..<stroke.pointCount {
            let dx = stroke.x[index] - cx, dy = stroke.y[index] - cy
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        let centre = Point(x: cx, y: cy)
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        // Eigenvalues of the covariance: a clear direction has one much larger than the other.
        let mean = (sxx + syy) / 2, spread = (((sxx - syy) / 2) * ((sxx - syy) / 2) + sxy * sxy).squareRoot()
        let major = mean + spread, minor = mean - spread
        guard major > 4 * max(minor, 0), abs(angle) <= maxDegrees * Double.pi / 180 else { return (0, centre) }
        return (angle, centre)
    }

    /// The words a strike-through deletes, or nil when the stroke is not one.
    private func strikeThrough(_ shape: StrokeShape, stroke: Stroke, bounds: Rect, lineHeight: Double,
                               glyphs: [GestureGlyph]) -> [Int]? {
        let t = thresholds
        let count = stroke.pointCount
        let dx = stroke.x[count - 1] - stroke.x[0], dy = stroke.y[count - 1] - stroke.y[0]
        let chord = (dx * dx + dy * dy).squareRoot()
        guard chord > 0, shape.path <= t.maxStrikeStraightness * chord,
              Self.maxDeviation(stroke) <= t.maxStrikeDeviationInLines * lineHeight,
              shape.xPath <= t.maxStrikeXPathRatio * bounds.width,
              abs(dy) <= abs(dx) * Self.tangent(degrees: t.maxStrikeSlantDegrees),
              bounds.width >= t.minStrikeLengthInLines * lineHeight
        else { return nil }
        // The stroke as a function of x (it runs one way): its y where it crosses each character.
        let line = MonotoneLine(stroke)
        return Self.words(in: glyphs, covering: bounds.minX...bounds.maxX, minimum: t.minWordCoverage,
                          through: { box in
                              // Through the middle of the word, not over or under it.
                              guard let y = line.y(at: box.center.x) else { return false }
                              return y >= box.minY + t.middleBand.lowerBound * box.height
                                  && y <= box.minY + t.middleBand.upperBound * box.height
                          },
                          inside: { box, x in
                              guard let y = line.y(at: x) else { return false }
                              return y >= box.minY && y <= box.maxY
                          })
    }

    /// Words whose width lies inside `range` for at least `minimum` of it, on a line `accepts`.
    private static func words(in glyphs: [GestureGlyph], covering range: ClosedRange<Double>, minimum: Double,
                              accepts: (Rect) -> Bool) -> [Int] {
        var boxes: [Int: Rect] = [:]
        for glyph in glyphs { boxes[glyph.word] = boxes[glyph.word].map { $0.union(glyph.box) } ?? glyph.box }
        return boxes.compactMap { word, box -> Int? in
            guard box.width > 0, accepts(box) else { return nil }
            let covered = min(box.maxX, range.upperBound) - max(box.minX, range.lowerBound)
            return covered >= minimum * box.width ? word : nil
        }.sorted()
    }

    /// Words the stroke goes `through` and crosses `inside` their box for at least `minimum` of
    /// their width, sampled at 16 places per word.
    private static func words(in glyphs: [GestureGlyph], covering range: ClosedRange<Double>, minimum: Double,
                              through: (Rect) -> Bool, inside: (Rect, Double) -> Bool) -> [Int] {
        var boxes: [Int: Rect] = [:]
        for glyph in glyphs { boxes[glyph.word] = boxes[glyph.word].map { $0.union(glyph.box) } ?? glyph.box }
        let samples = 16
        return boxes.compactMap { word, box -> Int? in
            guard box.width > 0, through(box) else { return nil }
            var hits = 0
            for index in 0..<samples {
                let x = box.minX + (Double(index) + 0.5) / Double(samples) * box.width
                if range.contains(x), inside(box, x) { hits += 1 }
            }
            return Double(hits) >= minimum * Double(samples) ? word : nil
        }.sorted()
    }
}
