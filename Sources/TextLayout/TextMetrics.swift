import Geometry

/// The measured size of a (possibly multi-line) text, in points.
public struct TextMetrics: Sendable, Equatable {
    /// The widest measured line.
    public var width: Double
    /// `lineCount × lineHeight`.
    public var height: Double
    /// Lines measured: the text's lines, capped by the line limit. An empty text is one empty line.
    public var lineCount: Int
    /// One entry per measured line, top to bottom.
    public var lines: [LineMetrics]
    /// The baseline-to-baseline distance used: the requested line height or the font's natural one.
    public var lineHeight: Double
    /// Lines of the text past the line limit, which were not measured (0 when nothing was cut).
    public var truncatedLineCount: Int
    /// Characters no loaded face has, measured as DejaVu's `.notdef` box.
    public var missingGlyphCount: Int
    /// Characters measured with the fallback face because DejaVu lacks them.
    public var fallbackGlyphCount: Int

    /// Creates metrics; ``TextMeasurer`` is the usual source.
    public init(
        width: Double, height: Double, lineCount: Int, lines: [LineMetrics], lineHeight: Double,
        truncatedLineCount: Int = 0, missingGlyphCount: Int = 0, fallbackGlyphCount: Int = 0
    ) {
        self.width = width
        self.height = height
        self.lineCount = lineCount
        self.lines = lines
        self.lineHeight = lineHeight
        self.truncatedLineCount = truncatedLineCount
        self.missingGlyphCount = missingGlyphCount
        self.fallbackGlyphCount = fallbackGlyphCount
    }

}

/// The measured extent of one line.
public struct LineMetrics: Sendable, Equatable {
    /// Sum of advances, kerning and tracking, in points (never negative).
    public var width: Double
    /// The font's ascent at the measured size.
    public var ascent: Double
    /// The font's descent at the measured size (positive).
    public var descent: Double
    /// Where each character (grapheme cluster; a `"\r"` is none) of the line starts and ends, in
    /// points from the line's left edge, from the same advances, kerning and tracking as `width`:
    /// what maps a point of the drawn text back to the character under it.
    public var characters: [CharacterExtent]

    /// Creates line metrics.
    public init(width: Double, ascent: Double, descent: Double, characters: [CharacterExtent] = []) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.characters = characters
    }
}

/// The horizontal extent of one measured character: its pen position before and after it.
/// `end` is before `start` when a character's advance is negative (strong negative tracking).
public struct CharacterExtent: Sendable, Equatable {
    /// Where the character starts, in points from its line's left edge.
    public var start: Double
    /// Where the next character's pen starts (before tracking), in points from the line's left edge.
    public var end: Double

    /// Creates an extent.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// How lines narrower than the text's width sit within it.
public enum TextAlignment: String, CaseIterable, Sendable, Codable {
    /// Flush with the left edge.
    case left
    /// Centred.
    case center
    /// Flush with the right edge.
    case right
}

extension TextMetrics {
    /// Where line `index` starts, measured from the left edge of the text box.
    ///
    /// Returns 0 for an index out of range, so a renderer never reads past ``lines``.
    public func lineOriginX(line index: Int, alignment: TextAlignment) -> Double {
        guard lines.indices.contains(index) else { return 0 }
        let slack = width - lines[index].width
        switch alignment {
        case .left: return 0
        case .center: return slack / 2
        case .right: return slack
        }
    }

    /// The baseline of line `index`, measured down from the top of the text box.
    ///
    /// Each line box is `lineHeight` tall and the glyph box (ascent + descent) is centred in it, splitting any extra
    /// leading evenly above and below, as CSS does; an explicit line height smaller than the glyph box lets lines
    /// overlap rather than growing the text.
    public func baselineY(line index: Int) -> Double {
        guard lines.indices.contains(index) else { return 0 }
        let line = lines[index]
        let halfLeading = (lineHeight - (line.ascent + line.descent)) / 2
        return Double(index) * lineHeight + halfLeading + line.ascent
    }
}
