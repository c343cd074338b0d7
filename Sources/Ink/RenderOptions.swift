/// Every knob of line normalization and rendering, in one place, because a training pipeline
/// varies them for augmentation and the recognizer tunes them. Lengths in pixels unless noted.
public struct RenderOptions: Sendable, Equatable {
    /// Height the ink of a line is scaled to (after rotation), in pixels. Default 24.
    public var targetInkHeight: Double
    /// Pen diameter as a fraction of `targetInkHeight`. Default 0.08 (about 2 px at 24 px).
    public var penWidthRatio: Double
    /// White margin on every side, as a fraction of `targetInkHeight`, measured from the pen
    /// edge. Default 0.25.
    public var paddingRatio: Double
    /// Soft pen edges. Default on.
    public var antialiased: Bool
    /// Widest image produced. Longer lines are split at their widest gaps between words, and
    /// a single word that is still too wide is scaled down to fit. Default 2,400.
    public var maxImageWidth: Int
    /// Level each line by rotating its baseline (fitted through the lowest ink points) to
    /// horizontal. Default on.
    public var correctsBaseline: Bool
    /// Largest rotation applied, in degrees; a fitted angle beyond it is clamped. Default 15.
    public var maxRotationDegrees: Double
    /// Undo the writing's slant with a horizontal shear. Default off: measured on digits, it
    /// did more harm than good.
    public var correctsSlant: Bool
    /// Largest slant undone, in degrees from vertical. Default 45.
    public var maxSlantDegrees: Double
    /// Scale clamp for flat ink, from other lines: a line is never scaled as if its ink were
    /// lower than this fraction of the typical stroke height of the whole ink. Default 0.5.
    public var minHeightToTypicalStroke: Double
    /// Scale clamp for flat ink with nothing else to go by (a horizontal line, a row of dots):
    /// a line is never scaled so that its ink becomes wider than
    /// `flatAspectBase + flatAspectPerStroke × strokeCount` times its target height.
    /// Real text stays far below this (a cursive word is one stroke about eight heights wide).
    /// Defaults 8 and 8.
    public var flatAspectBase: Double
    /// See `flatAspectBase`.
    public var flatAspectPerStroke: Double
    /// Ink that is one flat, straight stroke (at least `FlatMark.minAspect` times as wide
    /// as high, its path at most `FlatMark.maxPathToWidth` times its width: a dash, an
    /// underscore) is drawn as a mark this many target heights wide, centred, instead of as
    /// text as tall as its own ink (a dash 4 units high became a wobbly rule 24 pixels high
    /// and 290 wide, and was read as nothing). Default 1; 0 draws it as any other line.
    public var flatMarkWidth: Double
    /// A speck (see `LineSegmenter.Options.speckRatio`) more than this many letter heights
    /// above or below a line's letters is left out of the line's image, so that a pen tap
    /// does not set the line's height. Default 1; 0 keeps every speck.
    public var outlierRatio: Double
    /// Horizontal stretch after scaling: the image is this many times wider than the ink's
    /// proportions (never wider than `maxImageWidth`). Default 1.
    public var widthScale: Double
    /// The stretch of long lines, when it differs from `widthScale`: a line whose ink, scaled
    /// to `targetInkHeight`, is at least `longLineAspect.upperBound` heights wide is drawn this
    /// many times wider, one of at most `longLineAspect.lowerBound` heights gets `widthScale`,
    /// and lines in between a stretch in between (linear in their width). Handwritten lines
    /// get taller with their length (more ascenders, descenders and drift), so their letters
    /// come out narrower than a word's. Default nil: `widthScale` for every line.
    public var longLineWidthScale: Double?
    /// See `longLineWidthScale`. Default 4...10 (single words are mostly 2-5 heights wide,
    /// lines of several words 7-13).
    public var longLineAspect: ClosedRange<Double>
    /// How ink is split into lines.
    public var segmentation: LineSegmenter.Options

    /// Options with the documented defaults, each overridable.
    public init(
        targetInkHeight: Double = 24,
        penWidthRatio: Double = 0.08,
        paddingRatio: Double = 0.25,
        antialiased: Bool = true,
        maxImageWidth: Int = 2_400,
        correctsBaseline: Bool = true,
        maxRotationDegrees: Double = 15,
        correctsSlant: Bool = false,
        maxSlantDegrees: Double = 45,
        minHeightToTypicalStroke: Double = 0.5,
        flatAspectBase: Double = 8,
        flatAspectPerStroke: Double = 8,
        flatMarkWidth: Double = 1,
        outlierRatio: Double = 1,
        widthScale: Double = 1,
        longLineWidthScale: Double? = nil,
        longLineAspect: ClosedRange<Double> = 4...10,
        segmentation: LineSegmenter.Options = LineSegmenter.Options()
    ) {
        self.widthScale = widthScale
        self.longLineWidthScale = longLineWidthScale
        self.longLineAspect = longLineAspect
        self.targetInkHeight = targetInkHeight
        self.penWidthRatio = penWidthRatio
        self.paddingRatio = paddingRatio
        self.antialiased = antialiased
        self.maxImageWidth = maxImageWidth
        self.correctsBaseline = correctsBaseline
        self.maxRotationDegrees = maxRotationDegrees
        self.correctsSlant = correctsSlant
        self.maxSlantDegrees = maxSlantDegrees
        self.minHeightToTypicalStroke = minHeightToTypicalStroke
        self.flatAspectBase = flatAspectBase
        self.flatAspectPerStroke = flatAspectPerStroke
        self.flatMarkWidth = flatMarkWidth
        self.outlierRatio = outlierRatio
        self.segmentation = segmentation
    }

    /// Pen diameter in pixels.
    public var penWidth: Double { penWidthRatio * targetInkHeight }

    /// Margin from the ink's centre line to the image edge: the padding plus half the pen.
    var margin: Double { paddingRatio * targetInkHeight + penWidth / 2 }

    /// Height of a line's image in pixels: the ink and a margin above and below.
    public var imageHeight: Int { Int((targetInkHeight + 2 * margin).rounded(.up)) }
}
