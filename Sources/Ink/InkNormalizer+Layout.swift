extension InkNormalizer {
    /// Geometry only: where each image of one line puts its ink, without drawing.
    ///
    /// Steps, each an affine map: move the line's centre to the origin; rotate its baseline
    /// level (clamped); optionally shear away the slant; scale so the ink is
    /// `targetInkHeight` high (clamped for flat ink, see `RenderOptions`), and `widthScale`
    /// times that across; translate into an image with margins, centring ink that came out
    /// smaller than the target. A line wider
    /// than `maxImageWidth` is split at its widest gaps between words, recursively; a word
    /// still too wide is scaled down to fit.
    public func layout(line: [Int], of strokes: [Stroke], typicalStrokeHeight: Double? = nil) -> [LinePlacement] {
        let drawable = line.filter { strokes.indices.contains($0) && strokes[$0].pointCount > 0 }
        // Decoded ink is always finite; this keeps hand-built strokes with NaN or infinities
        // from reaching the integer image sizes below.
        guard let drawnBounds = drawable.map({ strokes[$0] }).bounds, drawnBounds.width.isFinite,
              drawnBounds.height.isFinite, drawnBounds.minX.isFinite, drawnBounds.minY.isFinite else { return [] }
        let letterHeight = self.typicalStrokeHeight(of: strokes, indexes: drawable) ?? typicalStrokeHeight ?? drawnBounds.height
        let indexes = withoutOutlyingSpecks(drawable, of: strokes, letterHeight: letterHeight)
        let lineStrokes = indexes.map { strokes[$0] }
        guard let bounds = lineStrokes.bounds else { return [] }
        var transform = AffineTransform(translationX: -bounds.center.x, y: -bounds.center.y)
        if options.correctsBaseline {
            let maxAngle = options.maxRotationDegrees * .pi / 180
            let angle = BaselineEstimator.angle(of: lineStrokes.map { $0.applying(transform) },
                                                letterHeight: letterHeight, maxAngle: maxAngle)
            transform = transform.concatenating(AffineTransform(rotation: -angle))
        }
        if options.correctsSlant {
            let shear = SlantEstimator.shear(of: lineStrokes.map { $0.applying(transform) },
                                             maxAngle: options.maxSlantDegrees * .pi / 180)
            transform = transform.concatenating(AffineTransform(shearX: -shear))
        }
        let mapped = lineStrokes.map { $0.applying(transform) }
        guard let ink = mapped.bounds else { return [] }

        // A mark only when the stroke is all the ink: a dash beside other ink is part of what is
        // written there, and is drawn to its scale.
        let isMark = FlatMark.isFlatMark(mapped) && drawable.count == strokes.lazy.filter { $0.pointCount > 0 }.count
        let scale = self.scale(inkWidth: ink.width, inkHeight: ink.height, strokeCount: mapped.count,
                               typicalStrokeHeight: typicalStrokeHeight, isFlatMark: isMark)
        let scaleX = scale * widthScale(forAspect: ink.width * scale / options.targetInkHeight)
        // Ink-relative, scaled coordinates from here: the ink's top-left corner at the origin.
        transform = transform
            .concatenating(AffineTransform(translationX: -ink.minX, y: -ink.minY))
            .concatenating(AffineTransform(scaleX: scaleX, y: scale))
        let spans = mapped.map { stroke -> ClosedRange<Double> in
            let box = stroke.bounds ?? ink
            return scaleX * (box.minX - ink.minX)...scaleX * (box.maxX - ink.minX)
        }
        let margin = options.margin
        let height = options.imageHeight
        let maxWidth = max(Double(options.maxImageWidth), Double(height))
        let pieces = Self.split(clusters: Self.clusters(of: spans), maxInkWidth: maxWidth - 2 * margin)

        return pieces.map { piece in
            let fit = piece.span.upperBound > piece.span.lowerBound
                ? min(1, (maxWidth - 2 * margin) / (piece.span.upperBound - piece.span.lowerBound)) : 1
            let inkWidth = fit * (piece.span.upperBound - piece.span.lowerBound)
            let inkHeight = fit * scale * ink.height
            // `min`: a piece scaled to fit exactly must not gain a pixel from rounding.
            let width = min(Int(maxWidth), max(height, Int((inkWidth + 2 * margin).rounded(.up))))
            let dx = (Double(width) - inkWidth) / 2 - fit * piece.span.lowerBound
            let dy = margin + max(0, options.targetInkHeight - inkHeight) / 2
            let placed = transform
                .concatenating(AffineTransform(scaleX: fit, y: fit))
                .concatenating(AffineTransform(translationX: dx, y: dy))
            return LinePlacement(strokeIndexes: piece.members.sorted().map { indexes[$0] },
                                 boardToImage: placed, width: width, height: height)
        }
    }

    /// The line without specks lying more than `outlierRatio` letter heights above or below
    /// its letters: a pen tap that high would set the line's height and shrink every letter
    /// to a fraction of the image (i-dots and accents sit well within that distance).
    func withoutOutlyingSpecks(_ indexes: [Int], of strokes: [Stroke], letterHeight: Double) -> [Int] {
        let speck = options.segmentation.speckRatio * letterHeight
        let reach = options.outlierRatio * letterHeight
        guard speck > 0, reach > 0 else { return indexes }
        let isLetter = { (index: Int) -> Bool in
            (strokes[index].bounds?.height ?? 0) >= options.segmentation.dotRatio * letterHeight
        }
        guard let band = indexes.filter(isLetter).map({ strokes[$0] }).bounds else { return indexes }
        return indexes.filter { index in
            guard let box = strokes[index].bounds, box.width <= speck, box.height <= speck else { return true }
            return box.maxY >= band.minY - reach && box.minY <= band.maxY + reach
        }
    }

    /// The horizontal stretch of a line `aspect` target heights wide (`RenderOptions.widthScale`
    /// and `longLineWidthScale`); 1 for a stretch that is not a positive finite number.
    func widthScale(forAspect aspect: Double) -> Double {
        let valid = { (scale: Double) -> Double in scale > 0 && scale.isFinite ? scale : 1 }
        let short = valid(options.widthScale)
        guard let long = options.longLineWidthScale.map(valid), long != short else { return short }
        let range = options.longLineAspect
        guard range.upperBound > range.lowerBound else { return aspect >= range.upperBound ? long : short }
        let t = min(1, max(0, (aspect - range.lowerBound) / (range.upperBound - range.lowerBound)))
        return t.isFinite ? short + t * (long - short) : short
    }

    /// Pixels per board unit for ink of the given size: `targetInkHeight` over the ink height,
    /// except that flat ink is treated as at least `minHeightToTypicalStroke` typical strokes
    /// high and as no wider than the flat-aspect limit allows, and a flat mark (`FlatMark`) is
    /// drawn `flatMarkWidth` target heights wide.
    func scale(inkWidth: Double, inkHeight: Double, strokeCount: Int, typicalStrokeHeight: Double?,
               isFlatMark: Bool = false) -> Double {
        if isFlatMark, options.flatMarkWidth > 0 {
            return options.targetInkHeight * options.flatMarkWidth / max(inkWidth, 1e-6)
        }
        let maxAspect = options.flatAspectBase + options.flatAspectPerStroke * Double(strokeCount)
        let reference = max(inkHeight,
                            options.minHeightToTypicalStroke * (typicalStrokeHeight ?? 0),
                            inkWidth / maxAspect,
                            // A single dot has no size at all; any finite scale draws it the same.
                            1e-6)
        return options.targetInkHeight / reference
    }
}

/// Ink that is one flat, straight stroke: a dash or an underscore written alone, which no
/// letter height can scale (see `RenderOptions.flatMarkWidth`). A cursive word written in one
/// stroke can be as flat, but its path goes up and down along it, several times its width.
enum FlatMark {
    /// Width over height from which one stroke counts as flat.
    static let minAspect = 4.0
    /// Path length over width up to which a flat stroke counts as straight.
    static let maxPathToWidth = 1.5
    /// The share of the narrower of two flat strokes that must lie over the other for them to
    /// count as stacked.
    static let minStackOverlap = 0.5

    /// Whether the ink is one flat, straight stroke: a dash, an underscore.
    static func isFlatMark(_ strokes: [Stroke]) -> Bool {
        strokes.count == 1 && isFlatAndStraight(strokes[0])
    }

    /// Whether the ink is two or three flat, straight strokes stacked over each other: an
    /// `=`, a `≡`, a double rule.
    static func isStack(_ strokes: [Stroke]) -> Bool {
        guard (2...3).contains(strokes.count), strokes.allSatisfy(isFlatAndStraight) else { return false }
        let boxes = strokes.compactMap(\.bounds)
        for (index, box) in boxes.enumerated() {
            for other in boxes[(index + 1)...] {
                let overlap = min(box.maxX, other.maxX) - max(box.minX, other.minX)
                guard overlap >= minStackOverlap * min(box.width, other.width) else { return false }
            }
        }
        return true
    }

    static func isFlatAndStraight(_ stroke: Stroke) -> Bool {
        guard let box = stroke.bounds, box.width > 0, box.width >= minAspect * box.height else { return false }
        var path = 0.0
        for index in 1..<max(1, stroke.pointCount) {
            let dx = stroke.x[index] - stroke.x[index - 1], dy = stroke.y[index] - stroke.y[index - 1]
            path += (dx * dx + dy * dy).squareRoot()
        }
        return path <= maxPathToWidth * box.width
    }
}

/// Strokes whose horizontal extents overlap, merged: roughly letters or words.
struct InkCluster {
    var span: ClosedRange<Double>
    var members: [Int]
}

extension InkNormalizer {
    /// Overlapping spans merged into clusters, left to right.
    static func clusters(of spans: [ClosedRange<Double>]) -> [InkCluster] {
        var clusters: [InkCluster] = []
        for index in spans.indices.sorted(by: { spans[$0].lowerBound < spans[$1].lowerBound }) {
            let span = spans[index]
            if let last = clusters.last, span.lowerBound <= last.span.upperBound {
                clusters[clusters.count - 1].span = last.span.lowerBound...max(last.span.upperBound, span.upperBound)
                clusters[clusters.count - 1].members.append(index)
            } else {
                clusters.append(InkCluster(span: span, members: [index]))
            }
        }
        return clusters
    }

    /// Groups consecutive clusters into pieces no wider than `maxInkWidth`, cutting at the
    /// widest gap first. A single cluster is a piece whatever its width.
    static func split(clusters: [InkCluster], maxInkWidth: Double) -> [InkCluster] {
        guard let first = clusters.first, let last = clusters.last else { return [] }
        let whole = InkCluster(span: first.span.lowerBound...last.span.upperBound, members: clusters.flatMap(\.members))
        guard clusters.count > 1, whole.span.upperBound - whole.span.lowerBound > maxInkWidth else { return [whole] }
        var cut = 1
        var widest = -Double.infinity
        for index in 1..<clusters.count {
            let gap = clusters[index].span.lowerBound - clusters[index - 1].span.upperBound
            if gap > widest {
                widest = gap
                cut = index
            }
        }
        return split(clusters: Array(clusters[..<cut]), maxInkWidth: maxInkWidth)
            + split(clusters: Array(clusters[cut...]), maxInkWidth: maxInkWidth)
    }
}
