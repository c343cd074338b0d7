import Geometry

/// Splits ink into text lines from geometry (and, for Latin, writing order).
///
/// Hangul strokes are taken in an order made from their geometry (`StrokeOrder`: rows top to
/// bottom, each left to right, a syllable's strokes together), close to the order people write
/// in, so the order they arrive in changes nothing; Latin strokes in writing order when they
/// came in it, else in that geometric order too (`geometricOrder`). Tall strokes
/// (letters, not dots, dashes or bars) are taken in that order.
/// Each joins the line the previous one joined unless it lies clearly *below* that line's ink
/// at the same horizontal position: its centre more than `dropRatio` letter heights below the
/// nearby baseline with its top below it too, or just `returnDropRatio` below after the pen
/// jumped left by more than `returnRatio` letter heights (a carriage return). A line with too
/// few strokes for a baseline yet compares against its lowest ink instead. A stroke far
/// *above* the current line (`riseRatio`) has returned to an earlier line. Either way it
/// joins an existing line it fits, or starts a new one; a vertically stacked word list thus
/// becomes one line per word. Comparing against the ink *near the stroke* rather than the
/// whole line keeps rotated lines together. Dots, dashes and bars are placed last: with the line of the letter written
/// just before them when they fit there (i-dots, t-crosses, a j-dot written first), else with
/// the line they fit best.
///
/// Ink that is nothing but two or three flat bars stacked over each other (an `=` written
/// alone) is one line: by height alone each bar would be a line below the other.
///
/// Distances are in letter heights: the median height of a line's tall strokes once it has
/// `minStrokesForLineHeight` of them, otherwise the median over the whole ink. Lines come out
/// top to bottom, each with its stroke indexes in writing order.
public struct LineSegmenter: Sendable {
    /// Thresholds, in letter heights.
    public struct Options: Sendable, Equatable {
        /// A stroke whose vertical centre lies more than this far below the baseline of the
        /// nearby ink of the current line (and whose top lies below it too) starts a new line,
        /// or joins another line it fits. The baseline is the median bottom of the nearby tall
        /// strokes. Default 0.5.
        public var dropRatio: Double
        /// After the pen jumps left by more than `returnRatio` letter heights (a carriage
        /// return), a drop of `returnDropRatio` is enough. Defaults 3 and 0.2.
        public var returnRatio: Double
        /// See `returnRatio`.
        public var returnDropRatio: Double
        /// A stroke whose centre lies more than this far *above* that baseline is not an
        /// accent or a dot but belongs to a line above. Default 2.
        public var riseRatio: Double
        /// Tall strokes of a line within this many letter heights of a new stroke,
        /// horizontally, are its nearby ink. Default 1.5.
        public var neighbourhoodRatio: Double
        /// A stroke lower than this fraction of the ink's typical stroke height is a dot, dash
        /// or bar (or a quote mark) and does not vote on letter height or line position.
        /// Default 0.5.
        public var dotRatio: Double
        /// A dot, dash or bar farther than this from every line's band starts a line of its
        /// own. Default 1.
        public var strayRatio: Double
        /// A stray stroke at most this many letter heights wide and high is a pen tap (a speck
        /// far from everything written) and belongs to no line when the ink has letters;
        /// read alone it would add a line of "." or ",". Default 0.25; 0 keeps every speck.
        public var speckRatio: Double
        /// Tall strokes a line needs before its own letter height and baseline are trusted.
        /// Default 3.
        public var minStrokesForLineHeight: Int
        /// Latin ink whose tall strokes step back (leftwards by more than `backstepRatio` letter
        /// heights; a new line is one such step) more often than `backstepShare` of the time, and
        /// more than once, did not come in writing order (shuffled, sorted by height, reversed,
        /// merged from several sources). It decides between the lines found in the order the
        /// strokes came in and those found in the geometric order only where both find as many
        /// lines (otherwise the fewer lines are taken: `geometricOrder`). Defaults 0.5 and 0.15:
        /// on the held-out sets no English line and no composed line in writing order steps back
        /// that often, 5 % of the persons' text segments do, and 75–96 % of text lines shuffled.
        public var backstepRatio: Double
        /// See `backstepRatio`.
        public var backstepShare: Double
        /// Place syllable blocks instead of single strokes (for Hangul): see
        /// `SyllableBlocks`. Default off (Latin).
        public var groupsSyllableBlocks: Bool
        /// The limits of a syllable block: see `SyllableBlocks`.
        public var blocks: SyllableBlockLimits

        /// Options with the documented defaults, each overridable.
        public init(
            dropRatio: Double = 0.5,
            returnRatio: Double = 3,
            returnDropRatio: Double = 0.2,
            riseRatio: Double = 2,
            neighbourhoodRatio: Double = 1.5,
            dotRatio: Double = 0.5,
            strayRatio: Double = 1,
            speckRatio: Double = 0.25,
            minStrokesForLineHeight: Int = 3,
            backstepRatio: Double = 0.5,
            backstepShare: Double = 0.15,
            groupsSyllableBlocks: Bool = false,
            blocks: SyllableBlockLimits = SyllableBlockLimits()
        ) {
            self.dropRatio = dropRatio
            self.returnRatio = returnRatio
            self.returnDropRatio = returnDropRatio
            self.riseRatio = riseRatio
            self.neighbourhoodRatio = neighbourhoodRatio
            self.dotRatio = dotRatio
            self.strayRatio = strayRatio
            self.speckRatio = speckRatio
            self.minStrokesForLineHeight = minStrokesForLineHeight
            self.backstepRatio = backstepRatio
            self.backstepShare = backstepShare
            self.groupsSyllableBlocks = groupsSyllableBlocks
            self.blocks = blocks
        }
    }

    /// The thresholds in use.
    public var options: Options

    /// A segmenter with the given thresholds.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Stroke indexes per line, lines ordered top to bottom, indexes in writing order.
    /// Strokes without points and stray specks (see `speckRatio`) belong to no line; no
    /// strokes give no lines.
    public func segment(_ strokes: [Stroke]) -> [[Int]] {
        segment(strokes, inGeometricOrder: false)
    }

    /// `segment(_:)` for strokes already in the order `geometricOrder(_:)` gives (true: that
    /// order is not worked out again; the same lines either way).
    public func segment(_ strokes: [Stroke], inGeometricOrder ordered: Bool) -> [[Int]] {
        let boxes = strokes.map(\.bounds)
        let present = boxes.indices.filter { boxes[$0] != nil }
        guard !present.isEmpty else { return [] }
        // The bars of an `=` written alone are each a line by height; together they are one mark.
        if FlatMark.isStack(present.map { strokes[$0] }) { return [present] }
        let drawn = boxes.map { $0 ?? Rect(x: 0, y: 0, width: 0, height: 0) }
        // Hangul, and Latin that did not come in writing order, is placed in an order made from
        // its geometry (`StrokeOrder`); Latin in writing order keeps it (see `geometricOrder`).
        let chosen: (order: [Int], lines: [[Int]]?) = ordered ? (present, nil) : placementOrder(present, boxes: drawn, strokes: strokes)
        if let found = chosen.lines { return found }
        let order = chosen.order
        let ordered = order.map { drawn[$0] }
        let lines: [[Int]]
        if options.groupsSyllableBlocks {
            let blocks = SyllableBlocks(limits: options.blocks, dotRatio: options.dotRatio).group(Array(ordered.indices), boxes: ordered)
            lines = place(blocks.map(\.box), Array(blocks.indices)).map { $0.flatMap { blocks[$0].strokes } }
        } else {
            lines = place(ordered, Array(ordered.indices))
        }
        return lines.map { $0.map { order[$0] }.sorted() }
    }

    /// The strokes' indexes in the order lines are found in. With `groupsSyllableBlocks`
    /// (Hangul), an order made from their geometry alone (`StrokeOrder`: rows top to bottom,
    /// each left to right, a syllable's strokes together, a dot after its nearest stroke), strokes
    /// without points last: the same strokes in any order give the same sequence. (An order
    /// that is kept comes back as it is, strokes without points where they were.)
    ///
    /// Latin keeps the order it came in when that is writing order: on held-out English lines
    /// that drift, the geometric order split lines (7.8 points worse). It takes the geometric
    /// order when the order it came in makes more lines than the geometric one (no writer's
    /// order breaks a line the geometry keeps whole: shuffled ink does), or as many, placed
    /// otherwise, and its tall strokes step back more often than writing does (`backstepRatio`).
    public func geometricOrder(_ strokes: [Stroke]) -> [Int] {
        let boxes = strokes.map(\.bounds)
        let present = boxes.indices.filter { boxes[$0] != nil }
        let drawn = boxes.map { $0 ?? Rect(x: 0, y: 0, width: 0, height: 0) }
        let order = placementOrder(present, boxes: drawn, strokes: strokes).order
        return order == present ? Array(strokes.indices) : order + boxes.indices.filter { boxes[$0] == nil }
    }

    /// `present` in the order lines are found in (see `geometricOrder`).
    /// With the lines found in that order when they were found on the way (Latin that had
    /// both orders placed), so that they are not placed again.
    private func placementOrder(_ present: [Int], boxes: [Rect], strokes: [Stroke]) -> (order: [Int], lines: [[Int]]?) {
        guard present.count > 1 else { return (present, nil) }
        if options.groupsSyllableBlocks { return (StrokeOrder(options: options).order(present, boxes: boxes), nil) }
        // The letter height both the levelling and the step-back count measure in (none: no ink is
        // taller than flat, and neither applies).
        let typical = SegmentationState.typicalHeight(of: present.map { boxes[$0].height }, dotRatio: options.dotRatio)
        let levelledBoxes = typical.map { levelled(present, boxes: boxes, strokes: strokes, typical: $0) } ?? boxes
        let geometric = StrokeOrder(options: options).order(present, boxes: levelledBoxes)
        if geometric == present { return (present, nil) }
        func lines(_ order: [Int]) -> [[Int]] {
            place(order.map { boxes[$0] }, Array(order.indices)).map { $0.map { order[$0] }.sorted() }
        }
        let asGiven = lines(present), byGeometry = lines(geometric)
        let takesGeometry = byGeometry.count != asGiven.count ? byGeometry.count < asGiven.count
            : byGeometry != asGiven && typical.map { stepsBack(present, boxes: boxes, typical: $0) } == true
        return takesGeometry ? (geometric, byGeometry) : (present, asGiven)
    }

    /// The strokes' boxes measured with the ink turned level (its baseline's angle, up to
    /// `maxLevellingAngle`, undone): a line written at a slant is one row to the geometric order,
    /// which finds rows from overlapping heights.
    private func levelled(_ present: [Int], boxes: [Rect], strokes: [Stroke], typical: Double) -> [Rect] {
        // In an order of their own (by position), so that the angle, like the order made from it,
        // does not depend on the order the strokes came in (the estimator keeps the first of equal
        // lowest points).
        let byPosition = present.sorted {
            let a = boxes[$0], b = boxes[$1]
            return (a.minX, a.minY, a.maxX, a.maxY, strokes[$0].pointCount) < (b.minX, b.minY, b.maxX, b.maxY, strokes[$1].pointCount)
        }
        let angle = BaselineEstimator.angle(of: byPosition.map { strokes[$0] }, letterHeight: typical, maxAngle: Self.maxLevellingAngle)
        guard abs(angle) >= Self.minLevellingAngle else { return boxes }
        let level = AffineTransform(rotation: -angle)
        var turned = boxes
        for index in present { turned[index] = strokes[index].applying(level).bounds ?? boxes[index] }
        return turned
    }

    /// Baselines steeper than this (radians, 20°) are taken as at most this.
    static let maxLevellingAngle = 20 * Double.pi / 180
    /// Baselines within this of level (radians, 1°) are left as they are.
    static let minLevellingAngle = Double.pi / 180

    /// Whether the tall strokes, in the order given, step back (leftwards, by more than
    /// `backstepRatio` letter heights) more often than writing does (`backstepShare`).
    private func stepsBack(_ present: [Int], boxes: [Rect], typical: Double) -> Bool {
        guard present.count > 2 else { return false }
        let tall = present.filter { boxes[$0].height >= options.dotRatio * typical && boxes[$0].height > 0 }
        var backsteps = 0
        for (previous, next) in zip(tall, tall.dropFirst()) where boxes[next].center.x < boxes[previous].minX - options.backstepRatio * typical {
            backsteps += 1
        }
        return backsteps > 1 && Double(backsteps) > options.backstepShare * Double(tall.count - 1)
    }

    /// The placement proper over `boxes` (those listed in `present`, in writing order).
    private func place(_ boxes: [Rect], _ present: [Int]) -> [[Int]] {
        var state = SegmentationState(boxes: boxes, strokes: present, options: options)
        // Tall strokes decide where the lines are; dots, dashes and bars are placed after,
        // next to the tall stroke written just before them when they fit there.
        var lineOfStroke = [Int?](repeating: nil, count: boxes.count)
        var previousTall: Int?
        for index in present where state.isTall(index) {
            state.placeTall(index, after: previousTall)
            lineOfStroke[index] = state.current
            previousTall = index
        }
        var home: Int?
        for index in present {
            if state.isTall(index) {
                home = lineOfStroke[index]
            } else {
                state.placeSmall(index, home: home)
            }
        }
        return state.orderedLines()
    }
}
