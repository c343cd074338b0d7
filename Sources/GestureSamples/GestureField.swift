import Geometry
import Ink
import TextLayout

/// A field of text on a board, laid out as the service lays out a new sticker (its default font,
/// size and style, centred on `center`): the text gestures and writing are drawn over.
public struct GestureField: Sendable {
    /// The field's text.
    public let text: String
    /// Its words, in board coordinates.
    public let words: [TextWord]
    /// The field's frame.
    public let frame: Rect
    /// The height of a line's glyph box (ascent + descent).
    public let lineHeight: Double
    /// The font size.
    public let fontSize: Double

    /// Lays out `text` at `center` in `family` at `fontSize` with `measurer`.
    public init(text: String, center: Point, fontSize: Double = 28, family: FontFamily = .default,
                measurer: TextMeasurer) throws {
        let library = measurer.library
        let lineHeight = library.verticalMetrics(family: family, size: fontSize).lineHeight
        let metrics = try measurer.measure(text, family: family, size: fontSize, lineHeight: lineHeight)
        let geometry = StickerGeometry()
        let frame = geometry.fieldFrame(center: center, metrics: metrics, fontSize: fontSize)
        self.text = text
        self.frame = frame
        self.fontSize = fontSize
        self.words = WordLayout.words(of: text, metrics: metrics, in: geometry.textBox(frame: frame, isField: true),
                                      alignment: .center)
        self.lineHeight = metrics.lines.first.map { $0.ascent + $0.descent } ?? fontSize
    }

    /// Every character of the field's words, numbered by word, for ``GestureClassifier``.
    public var glyphs: [GestureGlyph] {
        words.enumerated().flatMap { index, word in word.boxes.map { GestureGlyph(box: $0, word: index) } }
    }

    /// The union of the words' boxes.
    public var textBounds: Rect? {
        words.map(\.bounds).reduce(nil as Rect?) { partial, box in partial.map { $0.union(box) } ?? box }
    }

    /// Words for fields, with no one-letter word (a gesture over one letter is a short mark).
    public static let vocabulary = [
        "dolls", "teddy", "bears", "milk", "bread", "apples", "coffee", "tea", "paper", "pens",
        "call", "Sarah", "before", "noon", "train", "tickets", "garden", "plants", "water", "lamps",
        "invoice", "March", "report", "draft", "review", "meeting", "Monday", "eggs", "butter", "cheese",
        "books", "library", "return", "keys", "phone", "charger", "dentist", "Friday", "gift", "cards",
    ]
}
