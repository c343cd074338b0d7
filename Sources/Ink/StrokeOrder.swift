import Geometry

/// An order of strokes made from their geometry alone, close to the order people write in: rows
/// top to bottom, each row left to right, a Hangul syllable's strokes together (top left first),
/// a dot or bar right after the block or stroke it is nearest to.
///
/// `LineSegmenter` reads Korean ink (`groupsSyllableBlocks`) in this order rather than in the
/// order it arrived, so what is read does not depend on that order: a 받침 or the bar of a ㅊ
/// added after the word, strokes merged from several sources, InkML trace groups in any order, or
/// ink sorted from top to bottom all give the lines the same ink written in order gives. Latin ink
/// keeps its writing order when it came in one (`LineSegmenter.geometricOrder` says why and how
/// that is told).
///
/// - Units: the syllable blocks geometry makes: strokes that overlap horizontally and lie within
///   `gapRatio` of each other are merged, the closest pairs first, as long as the merged block
///   stays within `heightRatio` and `widthRatio` typical stroke heights (the limits
///   `SyllableBlocks` keeps); without `groupsSyllableBlocks`, each stroke.
/// - Rows: tall units taken left to right, each joining the row whose recent ink (the band
///   between the median top and the median bottom of its last four tall units, carried along
///   the row's slope) it overlaps most, by at least half of the lower of the two heights, or
///   else starting a row; rows that run at one height are joined again (`interleaved`,
///   `continued`). Rows come top to bottom by the median centre of their units.
/// - Small units (dots, dashes, bars: lower than `dotRatio` of the typical unit) follow the
///   tall unit closest to them.
///
/// Ties are broken by position, so any permutation of the same strokes gives the same order
/// (strokes with identical boxes excepted, whose order among themselves changes nothing).
struct StrokeOrder {
    var options: LineSegmenter.Options

    /// The indexes of `boxes` listed in `present`, reordered.
    func order(_ present: [Int], boxes: [Rect]) -> [Int] {
        guard present.count > 1 else { return present }
        let units = options.groupsSyllableBlocks ? blocks(present, boxes: boxes) : present.map { [$0] }
        let unitBoxes = units.map { unit in unit.dropFirst().reduce(boxes[unit[0]]) { $0.union(boxes[$1]) } }
        let typical = SegmentationState.typicalHeight(of: unitBoxes.map(\.height), dotRatio: options.dotRatio)
            ?? unitBoxes.map(\.height).max() ?? 0
        let tall = unitBoxes.indices.filter { unitBoxes[$0].height >= options.dotRatio * typical && unitBoxes[$0].height > 0 }
        let isTall = Set(tall)
        // No tall unit (dots and bars only): one row, left to right.
        let rows = tall.isEmpty ? [Self.byPosition(Array(unitBoxes.indices), unitBoxes)] : self.rows(tall, unitBoxes, typical: typical)
        var following = [[Int]](repeating: [], count: unitBoxes.count)
        let smalls = Self.byPosition(unitBoxes.indices.filter { !isTall.contains($0) }, unitBoxes)
        if !tall.isEmpty {
            // Tall units by their top; each small unit looks outward from its own height and stops
            // once the vertical gap alone is more than the nearest distance found.
            let byTop = tall.sorted { (unitBoxes[$0].minY, unitBoxes[$0].minX) < (unitBoxes[$1].minY, unitBoxes[$1].minX) }
            let tallest = tall.reduce(0) { max($0, unitBoxes[$1].height) }
            for small in smalls {
                let box = unitBoxes[small]
                var nearest = byTop[0], nearestDistance = Double.infinity
                func consider(_ unit: Int) {
                    let distance = Self.distance(box, unitBoxes[unit])
                    if distance < nearestDistance || (distance == nearestDistance && Self.precedes(unitBoxes[unit], unitBoxes[nearest])) {
                        nearest = unit
                        nearestDistance = distance
                    }
                }
                // The first tall unit whose top is at or below the small unit's top.
                var low = 0, high = byTop.count
                while low < high {
                    let middle = (low + high) / 2
                    if unitBoxes[byTop[middle]].minY < box.minY { low = middle + 1 } else { high = middle }
                }
                var down = low
                while down < byTop.count, unitBoxes[byTop[down]].minY - box.maxY <= nearestDistance {
                    consider(byTop[down])
                    down += 1
                }
                var up = low - 1
                // A unit above ends at most `tallest` below its top.
                while up >= 0, box.minY - (unitBoxes[byTop[up]].minY + tallest) <= nearestDistance {
                    consider(byTop[up])
                    up -= 1
                }
                following[nearest].append(small)
            }
        }
        let unitOrder = rows.flatMap { row in row.flatMap { [$0] + following[$0] } }
        // Within a unit, top left first (the sum of the centre's coordinates): initial, vowel, final.
        return unitOrder.flatMap { unit in
            units[unit].sorted {
                let a = boxes[$0].center, b = boxes[$1].center
                return a.x + a.y != b.x + b.y ? a.x + a.y < b.x + b.y : Self.precedes(boxes[$0], boxes[$1])
            }
        }
    }

    /// Most rows `interleaved` and `continued` join (see `rows`).
    static let maxRowsJoined = 64

    /// Rows of the tall units, top to bottom, each left to right.
    private func rows(_ tall: [Int], _ boxes: [Rect], typical: Double) -> [[Int]] {
        var rows: [[Int]] = []
        var bands: [Band] = []
        for unit in Self.byPosition(tall, boxes) {
            let box = boxes[unit]
            var best: (row: Int, overlap: Double)?
            for index in rows.indices {
                let (top, bottom) = bands[index].at(box.center.x)
                let shared = min(bottom, box.maxY) - max(top, box.minY)
                let lower = min(bottom - top, box.height)
                guard lower > 0 else { continue }
                let overlap = shared / lower
                if overlap >= 0.5, overlap > best?.overlap ?? -1 { best = (index, overlap) }
            }
            if let best {
                rows[best.row].append(unit)
                bands[best.row] = Band(rows[best.row], boxes)
            } else {
                rows.append([unit])
                bands.append(Band([unit], boxes))
            }
        }
        // Joining compares every pair of rows once per join: bounded, so that ink of hundreds of
        // rows (no one writes that in one go; a hostile client can send it) costs milliseconds,
        // not seconds. Beyond the bound the rows stay as found.
        if rows.count <= Self.maxRowsJoined {
            rows = Self.continued(Self.interleaved(rows, boxes, typical: typical), boxes, typical: typical)
        }
        return rows.sorted {
            let a = ($0.map { boxes[$0].center.y }).median, b = ($1.map { boxes[$0].center.y }).median
            return a != b ? a < b : Self.precedes(boxes[$0[0]], boxes[$1[0]])
        }
    }

    /// Rows joined that run at one height: when the units of the smaller row lie within 0.8
    /// typical heights (median) of where the other runs at their place (the centre of its three
    /// units nearest to each; 1 typical height for a row of one or two units: a comma, a
    /// descender, a letter that slipped), they are one line whose units the bands split (a band
    /// started on a letter written higher, a line that climbs); two lines of writing lie further
    /// apart. The closest pair first, each merged row left to right again.
    private static func interleaved(_ rows: [[Int]], _ boxes: [Rect], typical: Double) -> [[Int]] {
        var rows = rows
        /// A row's unit centres sorted by x, kept for each row (made again only for a merged one).
        func sortedCentres(_ row: [Int]) -> [Point] {
            row.map { boxes[$0].center }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        }
        /// Where a row runs at `x`: the median centre of its three units nearest to `x` (a binary
        /// search in its sorted centres, not a sort of the row for every unit compared).
        func centre(of centres: [Point], at x: Double) -> Double {
            var low = 0, high = centres.count
            while low < high {
                let middle = (low + high) / 2
                if centres[middle].x < x { low = middle + 1 } else { high = middle }
            }
            var left = low - 1, right = low
            var nearest: [Double] = []
            while nearest.count < 3, left >= 0 || right < centres.count {
                if right >= centres.count || (left >= 0 && x - centres[left].x <= centres[right].x - x) {
                    nearest.append(centres[left].y)
                    left -= 1
                } else {
                    nearest.append(centres[right].y)
                    right += 1
                }
            }
            return nearest.median
        }
        var centres = rows.map(sortedCentres)
        /// The range of a row's unit centres, vertically: rows whose ranges lie further apart than
        /// the reach cannot be one line, and are not compared unit by unit.
        func span(_ row: [Int]) -> ClosedRange<Double> {
            let centres = row.map { boxes[$0].center.y }
            return centres.min()!...centres.max()!
        }
        var spans = rows.map(span)
        while rows.count > 1 {
            var best: (a: Int, b: Int, distance: Double)?
            for a in rows.indices {
                for b in rows.indices where b > a
                    && max(spans[a].lowerBound, spans[b].lowerBound) - min(spans[a].upperBound, spans[b].upperBound) <= typical {
                    let (small, large) = rows[a].count <= rows[b].count ? (rows[a], centres[b]) : (rows[b], centres[a])
                    let distance = small.map { abs(boxes[$0].center.y - centre(of: large, at: boxes[$0].center.x)) }.median
                    let reach = small.count <= 2 ? 1.0 : 0.8
                    if distance <= reach * typical, distance < best?.distance ?? .infinity { best = (a, b, distance) }
                }
            }
            guard let best else { break }
            rows[best.a] = byPosition(rows[best.a] + rows[best.b], boxes)
            spans[best.a] = span(rows[best.a])
            centres[best.a] = sortedCentres(rows[best.a])
            rows.remove(at: best.b)
            spans.remove(at: best.b)
            centres.remove(at: best.b)
        }
        return rows
    }

    /// Rows joined where one goes on where another ends: a row that starts right of where
    /// another ends (overlapping it by at most half a typical height) and whose first units lie
    /// within a typical height of that row's last ones, vertically, is the same line (a word
    /// written higher or lower than the one before it); the closest such pair first. Two lines
    /// of writing lie over each other, or further apart.
    private static func continued(_ rows: [[Int]], _ boxes: [Rect], typical: Double) -> [[Int]] {
        struct Ends { var start: Double, startY: Double, end: Double, endY: Double }
        func ends(_ row: [Int]) -> Ends {
            Ends(start: boxes[row[0]].minX, startY: (row.prefix(4).map { boxes[$0].center.y }).median,
                 end: row.reduce(-Double.infinity) { max($0, boxes[$1].maxX) }, endY: (row.suffix(4).map { boxes[$0].center.y }).median)
        }
        var rows = rows
        var all = rows.map(ends)
        while true {
            var best: (left: Int, right: Int, gap: Double)?
            for l in all.indices {
                for r in all.indices where r != l && all[r].start >= all[l].end - 0.5 * typical
                    && abs(all[r].startY - all[l].endY) <= typical {
                    let gap = all[r].start - all[l].end
                    if gap < best?.gap ?? .infinity { best = (l, r, gap) }
                }
            }
            guard let best else { return rows }
            rows[best.left] += rows[best.right]
            all[best.left] = ends(rows[best.left])
            rows.remove(at: best.right)
            all.remove(at: best.right)
        }
    }

    /// The band a row's recent ink occupies, carried along the row's slope: the median top and
    /// bottom of its last four units, each taken relative to the line through the centres of its
    /// last eight (the median slope of their pairs, at most 12° steep, from at least three pairs),
    /// so that a sloped or rotated row keeps its band from word to word.
    private struct Band {
        var middleX = 0.0, middleY = 0.0, slope = 0.0, top = 0.0, bottom = 0.0

        init(_ row: [Int], _ boxes: [Rect]) {
            let fitted = row.suffix(8).map { boxes[$0].center }
            middleX = fitted.map(\.x).median
            middleY = fitted.map(\.y).median
            // The median slope between pairs of centres (Theil-Sen): a descender or a capital
            // among the last letters does not tilt it as a least-squares line would.
            var slopes: [Double] = []
            for (index, a) in fitted.enumerated() {
                for b in fitted[(index + 1)...] where abs(b.x - a.x) > 0 {
                    slopes.append((b.y - a.y) / (b.x - a.x))
                }
            }
            let steepest = 0.21  // tan 12°
            slope = slopes.count >= 3 ? max(-steepest, min(steepest, slopes.median)) : 0
            let recent = row.suffix(4).map { boxes[$0] }
            top = recent.map { $0.minY - line($0.center.x) }.median
            bottom = recent.map { $0.maxY - line($0.center.x) }.median
        }

        func line(_ x: Double) -> Double { middleY + slope * (x - middleX) }

        /// The band's top and bottom at `x`.
        func at(_ x: Double) -> (top: Double, bottom: Double) { (line(x) + top, line(x) + bottom) }
    }

    /// Syllable blocks from geometry: the closest pairs of strokes that overlap horizontally
    /// merged first, within the limits.
    private func blocks(_ present: [Int], boxes: [Rect]) -> [[Int]] {
        let limits = options.blocks
        let typical = SegmentationState.typicalHeight(of: present.map { boxes[$0].height }, dotRatio: options.dotRatio) ?? .infinity
        let sorted = Self.byPosition(present, boxes)
        var pairs: [(gap: Double, distance: Double, a: Int, b: Int)] = []
        for (position, a) in sorted.enumerated() {
            for b in sorted[(position + 1)...] {
                guard boxes[b].minX < boxes[a].maxX else { break }  // sorted by left edge: none further overlaps
                let gap = max(0, boxes[a].minY - boxes[b].maxY, boxes[b].minY - boxes[a].maxY)
                guard gap <= limits.gapRatio * typical else { continue }
                pairs.append((gap, boxes[a].center.distance(to: boxes[b].center), a, b))
            }
        }
        pairs.sort {
            if $0.gap != $1.gap { return $0.gap < $1.gap }
            if $0.distance != $1.distance { return $0.distance < $1.distance }
            return boxes[$0.a] != boxes[$1.a] ? Self.precedes(boxes[$0.a], boxes[$1.a]) : Self.precedes(boxes[$0.b], boxes[$1.b])
        }
        var parent = [Int: Int](uniqueKeysWithValues: present.map { ($0, $0) })
        var box = [Int: Rect](uniqueKeysWithValues: present.map { ($0, boxes[$0]) })
        func root(_ index: Int) -> Int {
            var index = index
            while let up = parent[index], up != index { index = up }
            return index
        }
        for pair in pairs {
            let a = root(pair.a), b = root(pair.b)
            guard a != b, let first = box[a], let second = box[b] else { continue }
            let union = first.union(second)
            guard union.height <= limits.heightRatio * typical, union.width <= limits.widthRatio * typical else { continue }
            parent[b] = a
            box[a] = union
        }
        var members: [Int: [Int]] = [:]
        for index in sorted { members[root(index), default: []].append(index) }
        return sorted.compactMap { members.removeValue(forKey: root($0)) }
    }

    /// Indexes sorted by their boxes' left edge, then top edge, then size.
    private static func byPosition(_ indexes: [Int], _ boxes: [Rect]) -> [Int] {
        indexes.sorted { precedes(boxes[$0], boxes[$1]) }
    }

    /// A total order of boxes: left edge, then top, then width, then height.
    private static func precedes(_ a: Rect, _ b: Rect) -> Bool {
        (a.minX, a.minY, a.width, a.height) < (b.minX, b.minY, b.width, b.height)
    }

    /// The gap between two boxes (0 when they overlap).
    private static func distance(_ a: Rect, _ b: Rect) -> Double {
        let dx = max(0, a.minX - b.maxX, b.minX - a.maxX), dy = max(0, a.minY - b.maxY, b.minY - a.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}
