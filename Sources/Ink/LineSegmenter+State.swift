import Geometry

/// One line being built: its strokes plus what the placement rules ask of it, kept up to
/// date on every append so each question costs at most one pass over the line's tall strokes.
struct LineUnderConstruction {
    /// Stroke indexes in the order they joined.
    var strokes: [Int] = []
    /// The tall strokes among them.
    var tall: [Int] = []
    /// Heights of the tall strokes, sorted, for the median.
    var tallHeights: [Double] = []
    /// The union of all stroke boxes.
    var bounds: Rect?

    mutating func append(_ index: Int, box: Rect, isTall: Bool) {
        strokes.append(index)
        bounds = bounds.map { $0.union(box) } ?? box
        guard isTall else { return }
        tall.append(index)
        let position = tallHeights.firstIndex { $0 > box.height } ?? tallHeights.count
        tallHeights.insert(box.height, at: position)
    }
}

/// The working state of one `LineSegmenter.segment` run.
struct SegmentationState {
    let boxes: [Rect]
    let options: LineSegmenter.Options
    /// The typical stroke height of the whole ink; fixed before placement starts.
    let globalHeight: Double
    var lines: [LineUnderConstruction] = []
    /// The line the last tall stroke joined.
    var current = 0

    init(boxes: [Rect], strokes: [Int], options: LineSegmenter.Options) {
        self.boxes = boxes
        self.options = options
        // Ink made only of dots and dashes has no letter height: its own height stands in, so
        // that it stays together as one line.
        let tops = strokes.map { boxes[$0].minY }, bottoms = strokes.map { boxes[$0].maxY }
        let inkHeight = (bottoms.max() ?? 0) - (tops.min() ?? 0)
        globalHeight = Self.typicalHeight(of: strokes.map { boxes[$0].height }, dotRatio: options.dotRatio)
            ?? (inkHeight > 0 ? inkHeight : 1)
    }

    /// The median height of the strokes that are not dots or dashes, or `nil` if all are.
    /// "Dot" is judged against the 90th percentile rather than the maximum, so one long
    /// vertical stroke does not turn every letter into a dot.
    static func typicalHeight(of heights: [Double], dotRatio: Double) -> Double? {
        let sorted = heights.sorted()
        guard let tallest = sorted.last, tallest > 0 else { return nil }
        let reference = sorted[Int((0.9 * Double(sorted.count - 1)).rounded(.up))]
        let tall = sorted.filter { $0 >= dotRatio * reference && $0 > 0 }
        return tall.isEmpty ? nil : tall[tall.count / 2]
    }

    func isTall(_ index: Int) -> Bool {
        boxes[index].height >= options.dotRatio * globalHeight
    }

    /// Whether the line has enough tall strokes for its own letter height and baseline.
    func isMature(_ line: LineUnderConstruction) -> Bool {
        line.tall.count >= options.minStrokesForLineHeight
    }

    /// The median height of the line's tall strokes once it is mature, else the whole ink's.
    func letterHeight(of line: LineUnderConstruction) -> Double {
        isMature(line) ? line.tallHeights[line.tallHeights.count / 2] : globalHeight
    }

    /// Where `box` sits relative to the nearby ink of `line`, in letter heights.
    ///
    /// Nearby ink is the line's tall strokes (dots, dashes and bars say little about where a
    /// line is) within the neighbourhood horizontally, topped up to four with the
    /// horizontally closest ones. Most strokes of most letters end on the baseline, so their
    /// median bottom estimates it (descenders are a minority and the median ignores them).
    /// `drop` is how far the box's centre lies below that baseline and `topDrop` how far its
    /// top does (negative above it); `near` says whether any reference stroke was really
    /// within the neighbourhood.
    func relation(of box: Rect, to line: LineUnderConstruction) -> (drop: Double, topDrop: Double, near: Bool) {
        let height = letterHeight(of: line)
        let reach = options.neighbourhoodRatio * height
        let candidates = line.tall.isEmpty ? line.strokes : line.tall
        var bottoms: [Double] = []
        // The four closest candidates, kept sorted by gap, for when too few are within reach.
        var closest: [(gap: Double, bottom: Double)] = []
        for index in candidates {
            let other = boxes[index]
            let gap = max(0, other.minX - box.maxX, box.minX - other.maxX)
            if gap <= reach { bottoms.append(other.maxY) }
            if closest.count < 4 || gap < closest[closest.count - 1].gap {
                let position = closest.firstIndex { $0.gap > gap } ?? closest.count
                closest.insert((gap, other.maxY), at: position)
                if closest.count > 4 { closest.removeLast() }
            }
        }
        let near = !bottoms.isEmpty
        if bottoms.count < 4 { bottoms = closest.map(\.bottom) }
        bottoms.sort()
        let baseline = bottoms.isEmpty ? box.maxY : bottoms[bottoms.count / 2]
        return ((box.center.y - baseline) / height, (box.minY - baseline) / height, near)
    }

    /// Whether `box` lies below `line`. For a mature line its centre must be more than
    /// `dropRatio` below the nearby baseline and, unless the pen has just returned to the
    /// left, its top must be below it too (so a descender stroke that starts at the x-height
    /// stays); after a return `returnDropRatio` is enough. For a young line the lowest point
    /// of all its ink stands in for the baseline.
    func isBelow(_ box: Rect, _ line: LineUnderConstruction, afterReturn: Bool) -> Bool {
        guard isMature(line) else {
            guard let lineBox = line.bounds else { return false }
            return (box.center.y - lineBox.maxY) / letterHeight(of: line) > options.dropRatio
        }
        let relation = relation(of: box, to: line)
        if afterReturn { return relation.drop > options.returnDropRatio }
        return relation.drop > options.dropRatio && relation.topDrop > 0
    }

    /// Whether `box` lies so far above `line` that it cannot be an accent or a dot.
    func isAbove(_ box: Rect, _ line: LineUnderConstruction) -> Bool {
        relation(of: box, to: line).drop < -options.riseRatio
    }

    mutating func startLine(with index: Int) {
        var line = LineUnderConstruction()
        line.append(index, box: boxes[index], isTall: isTall(index))
        lines.append(line)
        current = lines.count - 1
    }

    /// Places a tall stroke: it joins the current line unless it lies below or far above
    /// the current line's nearby ink; then it joins another line it fits, or starts one.
    mutating func placeTall(_ index: Int, after previous: Int?) {
        let box = boxes[index]
        guard !lines.isEmpty, let previous else {
            startLine(with: index)
            return
        }
        let line = lines[current]
        let jumpedBack = boxes[previous].maxX - box.minX > options.returnRatio * letterHeight(of: line)
        guard isBelow(box, line, afterReturn: jumpedBack) || isAbove(box, line) else {
            lines[current].append(index, box: box, isTall: true)
            return
        }
        for candidate in lines.indices.reversed() where candidate != current {
            let other = lines[candidate]
            if relation(of: box, to: other).near, !isBelow(box, other, afterReturn: false), !isAbove(box, other) {
                lines[candidate].append(index, box: box, isTall: true)
                current = candidate
                return
            }
        }
        startLine(with: index)
    }

    /// Places a dot, dash or bar once the lines exist: with the line of the tall stroke
    /// written just before it if it fits there (i-dots and t-crosses follow their letter or
    /// word), else with the line it fits best, or on a line of its own when it is more than
    /// `strayRatio` letter heights away from every line (a rule drawn under the text), or on
    /// none when it is a speck that far from writing (`speckRatio`).
    mutating func placeSmall(_ index: Int, home: Int?) {
        let box = boxes[index]
        guard !lines.isEmpty else {
            startLine(with: index)
            return
        }
        func misfit(_ line: Int) -> Double {
            let relation = relation(of: box, to: lines[line])
            // The band a dot may occupy: from well above the baseline to a little below it.
            return max(0, relation.drop - options.dropRatio, -options.riseRatio - relation.drop)
                + (relation.near ? 0 : 1)
        }
        if let home, misfit(home) == 0 {
            lines[home].append(index, box: box, isTall: false)
            return
        }
        let misfits = lines.indices.map(misfit)
        let best = misfits.indices.min { misfits[$0] < misfits[$1] } ?? 0
        guard misfits[best] <= options.strayRatio else {
            let speck = options.speckRatio * globalHeight
            if box.width <= speck, box.height <= speck, lines.contains(where: { !$0.tall.isEmpty }) {
                return  // a pen tap far from the writing: no line
            }
            startLine(with: index)
            return
        }
        lines[best].append(index, box: box, isTall: false)
    }

    /// Stroke indexes per line, each sorted into writing order, lines sorted top to bottom
    /// by the median vertical centre of their strokes.
    func orderedLines() -> [[Int]] {
        let keyed = lines.map { line -> (Double, [Int]) in
            let centres = line.strokes.map { boxes[$0].center.y }.sorted()
            return (centres[centres.count / 2], line.strokes.sorted())
        }
        return keyed.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
