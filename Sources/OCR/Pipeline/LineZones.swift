import Ink

/// The writing zones of a line: where its baseline and its x-height line (the tops of letters
/// without ascenders) lie.
///
/// Scaling a line by its whole ink height makes the letters' size depend on the word: "was" has
/// no ascender or descender, so its lower-case letters fill the image like capitals, while in
/// "Tagung" they are a third of it. Print, which Tesseract learned from, has letters of one
/// size on a line whose height leaves room for ascenders and descenders. Placing every line by
/// its zones gives handwriting the same proportions.
struct LineZones: Equatable {
    /// Image rows (y down) of the baseline and of the x-height line.
    var baseline: Double
    var midline: Double

    var bodyHeight: Double { baseline - midline }

    /// Turning points of the pen's vertical motion: where it stops going down (bottoms of
    /// letters, mostly on the baseline) and where it stops going up (tops, mostly on the
    /// x-height line). Strokes shorter than `minStrokeHeight` (dots, bars) are left out. The
    /// baseline is a low quantile of the bottoms and the midline a high quantile of the tops,
    /// so that descenders and ascenders, a minority, do not pull them.
    static func estimate(_ strokes: [Stroke], minStrokeHeight: Double) -> LineZones? {
        var tops: [Double] = []
        var bottoms: [Double] = []
        for stroke in strokes {
            guard let bounds = stroke.bounds, bounds.height >= minStrokeHeight else { continue }
            let y = stroke.y
            let count = stroke.pointCount
            // Direction of the last vertical move larger than a jitter threshold.
            let jitter = 0.05 * bounds.height
            var direction = 0
            var extreme = y[0]
            for index in 1..<max(count, 1) {
                let value = y[index]
                if direction >= 0, value > extreme { extreme = value; if direction == 0 { direction = 1 } }
                if direction <= 0, value < extreme { extreme = value; if direction == 0 { direction = -1 } }
                if direction == 1, value < extreme - jitter {
                    bottoms.append(extreme)
                    direction = -1
                    extreme = value
                } else if direction == -1, value > extreme + jitter {
                    tops.append(extreme)
                    direction = 1
                    extreme = value
                }
            }
            if direction == 1 { bottoms.append(extreme) } else if direction == -1 { tops.append(extreme) }
        }
        guard tops.count >= 2, bottoms.count >= 2 else { return nil }
        let baseline = quantile(bottoms, 0.4)
        let midline = quantile(tops, 0.6)
        guard baseline > midline else { return nil }
        return LineZones(baseline: baseline, midline: midline)
    }

    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count - 1)).rounded())))]
    }
}

extension LineImager {
    /// Re-places a normalised piece so that its body (baseline to x-height line) is
    /// `bodyRatio × inkHeight` high with the baseline `baselineRatio × inkHeight` below the top
    /// margin; the image grows where ink reaches beyond the usual zones. `nil` when the zones
    /// cannot be estimated (too little ink): the caller keeps the normal placement.
    func zoned(_ placement: LinePlacement, strokes: [Stroke], variant: RenderVariant,
               bodyRatio: Double, baselineRatio: Double) -> (boardToImage: AffineTransform, width: Int, height: Int)? {
        let mapped = placement.strokeIndexes.map { strokes[$0].applying(placement.boardToImage) }
        guard let ink = mapped.bounds, ink.height > 0,
              let zones = LineZones.estimate(mapped, minStrokeHeight: 0.25 * ink.height),
              zones.bodyHeight >= 0.15 * ink.height
        else { return nil }
        let height = variant.inkHeight
        let margin = variant.paddingRatio * height + variant.penWidthRatio * height / 2
        let scale = min(2.5, max(0.4, bodyRatio * height / zones.bodyHeight))
        let baselineRow = margin + baselineRatio * height
        let top = baselineRow - scale * (zones.baseline - ink.minY)
        let shift = max(0, margin - top)
        let bottom = baselineRow + shift + scale * (ink.maxY - zones.baseline)
        let imageHeight = Int(max(height + 2 * margin, bottom + margin).rounded(.up))
        let width = Int((scale * ink.width + 2 * margin).rounded(.up))
        let transform = placement.boardToImage
            .concatenating(AffineTransform(translationX: -ink.minX, y: -zones.baseline))
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(AffineTransform(translationX: margin, y: baselineRow + shift))
        return (transform, max(width, imageHeight), imageHeight)
    }
}
