import Geometry

/// Frames of a sticker around its fixed centre: an editable *field* while its text changes, then a fitted *label*.
///
/// The field imitates a `UITextField` with `borderStyle = .roundedRect` sized with `sizeThatFits` and re-centred
/// after each edit: the text box plus the rounded-rect insets, never smaller than a minimum that keeps an empty field
/// visible and tappable. The label is exactly the text box. Both are centred on the sticker's centre, so the sticker
/// grows and shrinks symmetrically and never drifts while it is edited.
///
/// Sizes are not rounded to pixels: frames stay exact (and centred exactly up to floating-point rounding of
/// `centre ± size/2`); a renderer rounds when it rasterises.
public struct StickerGeometry: Sendable, Equatable {
    /// Space between the field's edge and its text on the left and on the right (default 7 pt, the rounded-rect
    /// text field's text inset).
    public var horizontalInset: Double
    /// Space between the field's edge and its text above and below (default 5 pt: a 17 pt system font's 20 pt line
    /// plus 2 × 5 gives the rounded-rect field's familiar 30 pt height).
    public var verticalInset: Double
    /// The narrowest text area of a field, in ems of its font size (default 2): room for a caret and a character or
    /// two, so an empty field is still a target.
    public var minimumTextWidthEms: Double

    /// Creates a geometry; every parameter has the documented default.
    public init(horizontalInset: Double = 7, verticalInset: Double = 5, minimumTextWidthEms: Double = 2) {
        self.horizontalInset = horizontalInset
        self.verticalInset = verticalInset
        self.minimumTextWidthEms = minimumTextWidthEms
    }

    /// The field's frame for text of `textWidth` × `textHeight`, centred on `center`.
    ///
    /// Width is `max(text width, minimumTextWidthEms × fontSize) + 2 × horizontalInset`; height is
    /// `max(text height, lineHeight) + 2 × verticalInset`, so an empty field is one line tall. Negative or non-finite
    /// sizes count as 0.
    public func fieldFrame(center: Point, textWidth: Double, textHeight: Double, fontSize: Double, lineHeight: Double)
        -> Rect
    {
        let width = max(Self.clean(textWidth), minimumTextWidthEms * Self.clean(fontSize))
        let height = max(Self.clean(textHeight), Self.clean(lineHeight))
        return Rect(center: center, width: width + 2 * Self.clean(horizontalInset),
                    height: height + 2 * Self.clean(verticalInset))
    }

    /// The field's frame for measured `metrics` at `fontSize`, centred on `center`; the minimum height is one line
    /// of the metrics' line height.
    public func fieldFrame(center: Point, metrics: TextMetrics, fontSize: Double) -> Rect {
        fieldFrame(center: center, textWidth: metrics.width, textHeight: metrics.height, fontSize: fontSize,
                   lineHeight: metrics.lineHeight)
    }

    /// The label's frame: exactly the text's `textWidth` × `textHeight`, centred on `center`.
    /// Negative or non-finite sizes count as 0.
    public func labelFrame(center: Point, textWidth: Double, textHeight: Double) -> Rect {
        Rect(center: center, width: Self.clean(textWidth), height: Self.clean(textHeight))
    }

    /// Where a sticker's text is drawn inside its `frame`: a field's frame less its insets, a label's
    /// frame itself. Lines are aligned within this box's width (``WordLayout``).
    public func textBox(frame: Rect, isField: Bool) -> Rect {
        guard isField else { return frame }
        return Rect(x: frame.x + Self.clean(horizontalInset), y: frame.y + Self.clean(verticalInset),
                    width: max(0, frame.width - 2 * Self.clean(horizontalInset)),
                    height: max(0, frame.height - 2 * Self.clean(verticalInset)))
    }

    /// A length usable as a size: finite and not negative, else 0.
    private static func clean(_ value: Double) -> Double {
        value.isFinite && value > 0 ? value : 0
    }
}
