import Geometry
import Store
import TextLayout

/// Measures a sticker's text with real font metrics and places its frame around the fixed centre.
///
/// A field is the text plus text-field insets with a minimum size; a label is the text's exact box.
/// Either way the frame's centre is `center`: stickers grow and shrink from their centre.
struct StickerLayout: Sendable {
    let measurer: TextMeasurer
    let library: FontLibrary
    let geometry = StickerGeometry()

    init(library: FontLibrary) {
        self.library = library
        self.measurer = TextMeasurer(library: library)
    }

    /// The measured text of `record`, as its frame is fitted to it and as it is drawn.
    func metrics(of record: StickerRecord) throws(TextLayoutError) -> TextMetrics {
        let family = try FontFamily(name: record.fontFamily)
        let natural = library.verticalMetrics(family: family, size: record.fontSize).lineHeight
        // Every size × multiple the API accepts must lay out: keep the product inside the measurer's range.
        let range = library.configuration.limits.lineHeightRange
        let lineHeight = min(range.upperBound, max(range.lowerBound, record.style.lineHeight * natural))
        return try measurer.measure(record.text, family: family, size: record.fontSize,
                                    tracking: record.style.kerning, lineHeight: lineHeight,
                                    lineLimit: record.style.lineLimit ?? 0)
    }

    /// The words of `record`'s text where they are drawn on the board: the same measurement its
    /// frame is fitted with, lines aligned in its text box (a field's frame less its insets).
    func words(of record: StickerRecord) throws(TextLayoutError) -> [TextWord] {
        let metrics = try metrics(of: record)
        let alignment: TextAlignment = switch record.style.alignment {
        case .left: .left
        case .center: .center
        case .right: .right
        }
        return WordLayout.words(of: record.text, metrics: metrics,
                                in: geometry.textBox(frame: record.frame, isField: record.state == .field),
                                alignment: alignment)
    }

    /// Recomputes `record.frame` from its text, font, style and state.
    func fit(_ record: inout StickerRecord) throws(TextLayoutError) {
        let metrics = try metrics(of: record)
        let frame: Rect
        switch record.state {
        case .field: frame = geometry.fieldFrame(center: record.center, metrics: metrics, fontSize: record.fontSize)
        case .label: frame = geometry.labelFrame(center: record.center, textWidth: metrics.width, textHeight: metrics.height)
        }
        record.frame = frame
    }
}
