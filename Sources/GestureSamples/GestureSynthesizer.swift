#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Ink
import TextLayout

/// Generated pen gestures over words of a field, from a seeded generator: the set the gesture
/// classifier is measured on.
///
/// - Scratch-outs: 3 to 20 reversals; *tight* (passes inside the x-height band, turning close to
///   the words' ends) or *loose* (passes over most of the line's height, turning up to a fifth of
///   a line before or after the ends, each pass jittered); drifting down or up, or alternating
///   (a zig-zag); rotated by up to ±15° about their centre (less over a long run of words, whose
///   ends a person keeps on the line: at most a quarter of a line off); with hand tremor and
///   rounded turns.
/// - Strike-throughs: straight or wavy (a sine of 2 to 8 % of the line's height), at a slant of up
///   to ±15°, through the middle band of the words, starting and ending up to a third of a line
///   beyond (or a tenth inside) the words' ends. A slanted stroke leaves the middle band of a long
///   run of words at its ends, as a person's would: the run is cut to the words a stroke at that
///   slant can go through (at least one).
public struct GestureSynthesizer<Generator: RandomNumberGenerator> {
    /// The generator.
    public var random: Generator

    /// A synthesizer drawing from `random`.
    public init(random: Generator) {
        self.random = random
    }

    /// One scratch-out over `words[wordRange]` (one line of laid-out words in board coordinates).
    public mutating func scratchOut(over words: [TextWord], range wordRange: Range<Int>,
                                    reversals: Int, loose: Bool, slantDegrees: Double) -> Stroke {
        let boxes = words[wordRange].map(\.bounds)
        let box = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        let h = box.height
        // A person holds a long scratch-out level: its ends stay within a quarter of a line of the words' middle.
        let steepest = atan(0.5 * h / box.width) * 180 / Double.pi
        let slantDegrees = max(-steepest, min(steepest, slantDegrees))
        let endJitter = loose ? 0.2 * h : 0.06 * h
        let band = loose ? (0.12, 0.9) : (0.35, 0.75)
        let drift = Int.random(in: 0..<3, using: &random)  // 0 down, 1 up, 2 zig-zag
        var corners: [Point] = []
        let passes = reversals + 1
        for index in 0...passes {
            let rightSide = index % 2 == 1
            let base = rightSide ? box.maxX : box.minX
            let x = base + (rightSide ? 1 : -1) * uniform(-0.3 * endJitter, endJitter)
            let f = Double(index) / Double(passes)
            let position: Double
            switch drift {
            case 0: position = f
            case 1: position = 1 - f
            default: position = rightSide ? 0.25 : 0.75
            }
            let y = box.minY + h * (band.0 + (band.1 - band.0) * position) + uniform(-0.06, 0.06) * h
            corners.append(Point(x: x, y: y))
        }
        var points: [Point] = []
        let tremor = 0.012 * h
        for (a, b) in zip(corners, corners.dropFirst()) {
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let steps = max(4, Int(length / (0.08 * h)))
            let bow = loose ? uniform(-0.08, 0.08) * h : 0
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                // A rounded turn: the pass bows a little and slows into its ends.
                let eased = 0.5 - 0.5 * cos(Double.pi * t)
                let x = a.x + (b.x - a.x) * eased + uniform(-tremor, tremor)
                let y = a.y + (b.y - a.y) * eased + bow * sin(Double.pi * t) + uniform(-tremor, tremor)
                points.append(Point(x: x, y: y))
            }
        }
        points.append(corners[corners.count - 1])
        return timed(rotate(points, degrees: slantDegrees, about: box.center))
    }

    /// One strike-through over `words` (laid out, board coordinates) starting at `firstWord` (one
    /// line), up to `maxWords` of them; answers the stroke and the words it was drawn through.
    public mutating func strikeThrough(over words: [TextWord], firstWord: Int, maxWords: Int,
                                       wavy: Bool, slantDegrees: Double) -> (stroke: Stroke, words: Range<Int>) {
        let line = words[firstWord].line
        let h = words[firstWord].bounds.height
        let slope = abs(tan(slantDegrees * Double.pi / 180))
        // The run a stroke at this slant keeps inside the middle band over (±0.22 of the line).
        let reach = slope > 0 ? 0.44 * h / slope : .infinity
        var last = firstWord
        while last + 1 < min(words.count, firstWord + maxWords), words[last + 1].line == line,
              words[last + 1].bounds.maxX - words[firstWord].bounds.minX <= reach {
            last += 1
        }
        let boxes = words[firstWord...last].map(\.bounds)
        let box = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        let start = box.minX - uniform(-0.1, 0.33) * h
        let end = box.maxX + uniform(-0.1, 0.33) * h
        let y = box.minY + h * uniform(0.48, 0.62)
        let amplitude = wavy ? uniform(0.02, 0.08) * h : 0
        let wavelength = uniform(0.5, 1.2) * h
        let phase = uniform(0, 2 * Double.pi)
        let steps = max(8, Int((end - start) / (0.06 * h)))
        var points: [Point] = []
        let tremor = 0.01 * h
        for step in 0...steps {
            let x = start + (end - start) * Double(step) / Double(steps)
            let wave = amplitude * sin(2 * Double.pi * (x - start) / wavelength + phase)
            points.append(Point(x: x + uniform(-tremor, tremor) * 0.3, y: y + wave + uniform(-tremor, tremor)))
        }
        let centre = Point(x: (start + end) / 2, y: y)
        return (timed(rotate(points, degrees: slantDegrees, about: centre)), firstWord..<(last + 1))
    }

    private mutating func uniform(_ low: Double, _ high: Double) -> Double {
        Double.random(in: low...high, using: &random)
    }

    private func rotate(_ points: [Point], degrees: Double, about centre: Point) -> [Point] {
        let angle = degrees * Double.pi / 180
        let (c, s) = (cos(angle), sin(angle))
        return points.map { p in
            let (dx, dy) = (p.x - centre.x, p.y - centre.y)
            return Point(x: centre.x + c * dx - s * dy, y: centre.y + s * dx + c * dy)
        }
    }

    private func timed(_ points: [Point]) -> Stroke {
        Stroke(x: points.map(\.x), y: points.map(\.y), t: points.indices.map { Double($0) * 8 })
    }
}
