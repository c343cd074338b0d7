import Foundation

/// Measures text with the faces of a ``FontLibrary``.
///
/// ### What is measured
/// - Lines are separated by `"\n"` (a `"\r\n"` pair counts as one separator). Each line's width is the sum of its
///   glyphs' design advances, plus the face's `kern`-table adjustment between neighbouring glyphs (`FT_Get_Kerning`),
///   plus `tracking` between neighbouring characters (grapheme clusters, so `e` + U+0301 gets none inside it):
///   `(characters − 1) × tracking`. With tracking so negative that characters step back over the ones before
///   them, a line is as wide as the span its characters cover (from the leftmost start to the rightmost end), never
///   narrower than its widest character.
/// - There is no shaping (no ligatures, no GPOS) and no wrapping: text is as wide as its longest line.
/// - Height is `lineCount × lineHeight`, with the font's natural line height when none is given.
/// - `lineLimit` (0 = none) keeps the first `lineLimit` lines and drops the rest, as a `UILabel` with
///   `numberOfLines` shows only its first lines. Unlike `UILabel` no ellipsis is added: the dropped count is reported
///   in ``TextMetrics/truncatedLineCount`` so a renderer can add one.
///
/// Text is measured in its composed form (NFC), as a renderer draws it.
///
/// ### Characters DejaVu lacks
/// A scalar with no glyph in the family's DejaVu face is looked up in the family's fallback face (Nanum, when
/// `fonts-nanum` is installed; it covers Hangul). Without one it measures as DejaVu's `.notdef` box, as a renderer
/// without that face would draw it. Control characters and default-ignorable scalars (ZWJ, variation selectors) that
/// no face has measure as nothing. No kerning applies across faces.
///
/// ### Units
/// Everything is summed as integer font units and scaled once by `size / unitsPerEm`, so widths are exactly
/// proportional to `size` and carry no hinting or 26.6 rounding.
public struct TextMeasurer: Sendable {
    /// The fonts measured with.
    public let library: FontLibrary

    /// Creates a measurer over `library`.
    public init(library: FontLibrary) {
        self.library = library
    }

    /// Measures `text` in `family` at `size` points.
    ///
    /// - Parameters:
    ///   - tracking: extra points between neighbouring characters (the style's kerning), may be negative.
    ///   - lineHeight: baseline-to-baseline distance in points; `nil` for the font's natural line height.
    ///   - lineLimit: the most lines measured; 0 for no limit.
    /// - Throws: ``TextLayoutError/invalidArgument(argument:value:allowed:)`` or
    ///   ``TextLayoutError/textTooLong(utf8Bytes:limit:)`` for inputs outside ``TextLayoutLimits``.
    public func measure(
        _ text: String,
        family: FontFamily = .default,
        size: Double,
        tracking: Double = 0,
        lineHeight: Double? = nil,
        lineLimit: Int = 0
    ) throws(TextLayoutError) -> TextMetrics {
        let limits = library.configuration.limits
        try Self.validate(text: text, size: size, tracking: tracking, lineHeight: lineHeight,
                          lineLimit: lineLimit, limits: limits)

        let primary = library.face(family)
        let fallback = library.fallback(family)
        let vertical = library.verticalMetrics(family: family, size: size)
        let resolvedLineHeight = lineHeight ?? vertical.lineHeight
        let primaryScale = size / Double(primary.unitsPerEm)
        let fallbackScale = fallback.map { size / Double($0.unitsPerEm) } ?? 0

        // Measured composed (NFC), as renderers draw it: a Hangul syllable typed as conjoining jamo
        // (U+1100 U+1161 U+11A8) is one glyph, not three.
        let composed = text.precomposedStringWithCanonicalMapping
        var lineTexts = composed.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var truncated = 0
        if lineLimit > 0, lineTexts.count > lineLimit {
            truncated = lineTexts.count - lineLimit
            lineTexts.removeLast(truncated)
        }

        let measured = primary.withState { state in
            var lines: [LineMetrics] = []
            lines.reserveCapacity(lineTexts.count)
            var missing = 0
            var fallbackGlyphs = 0
            for lineText in lineTexts {
                var units = LineUnits()
                var span = Span()
                var characters: [CharacterExtent] = []
                Self.accumulate(Substring(lineText), into: &units, state: &state, primary: primary, fallback: fallback) { sum in
                    // The pen after each character, in points: its span is where characters start and end.
                    let pen = Double(sum.primary) * primaryScale + Double(sum.fallback) * fallbackScale
                        + Double(sum.characters - 1) * tracking
                    let start = span.pen + (sum.characters > 1 ? tracking : 0)
                    span.add(start: start, end: pen)
                    characters.append(CharacterExtent(start: start, end: pen))
                    span.pen = pen
                }
                missing += units.missing
                fallbackGlyphs += units.fallbackGlyphs
                // Where each character is, from the line's left edge (its leftmost character start).
                let shifted = characters.map { CharacterExtent(start: $0.start - span.lowest, end: $0.end - span.lowest) }
                lines.append(LineMetrics(width: span.width, ascent: vertical.ascent, descent: vertical.descent,
                                         characters: shifted))
            }
            return MeasuredLines(lines: lines, missing: missing, fallbackGlyphs: fallbackGlyphs)
        }

        let width = measured.lines.reduce(0) { max($0, $1.width) }
        return TextMetrics(
            width: width,
            height: Double(measured.lines.count) * resolvedLineHeight,
            lineCount: measured.lines.count,
            lines: measured.lines,
            lineHeight: resolvedLineHeight,
            truncatedLineCount: truncated,
            missingGlyphCount: measured.missing,
            fallbackGlyphCount: measured.fallbackGlyphs
        )
    }

    /// Adds one line's glyphs to `units`, under the primary face's lock.
    private static func accumulate(
        _ line: Substring, into units: inout LineUnits, state: inout FaceState,
        primary: FontFace, fallback: FontFace?, afterCharacter: (LineUnits) -> Void
    ) {
        var previous: UInt32?
        for character in line {
            // A "\r" left over from a "\r\n" separator, or a lone one, takes no room and is not a character.
            if character == "\r" { continue }
            units.characters += 1
            defer { afterCharacter(units) }
            for scalar in character.unicodeScalars {
                let glyph = state.glyph(for: scalar)
                if glyph != 0 {
                    if let previous { units.primary += state.kerning(previous, glyph) }
                    units.primary += state.advance(of: glyph)
                    previous = glyph
                    continue
                }
                previous = nil
                if let fallback, let advance = fallbackAdvance(of: scalar, in: fallback) {
                    units.fallback += advance
                    units.fallbackGlyphs += 1
                } else if scalar.properties.generalCategory == .control
                    || scalar.properties.isDefaultIgnorableCodePoint {
                    continue
                } else {
                    units.primary += primary.notdefAdvance
                    units.missing += 1
                }
            }
        }
    }

    /// The advance of `scalar` in the fallback face, or `nil` when that face lacks it too.
    private static func fallbackAdvance(of scalar: Unicode.Scalar, in face: FontFace) -> Int? {
        face.withState { state in
            let glyph = state.glyph(for: scalar)
            return glyph == 0 ? nil : state.advance(of: glyph)
        }
    }

    private static func validate(
        text: String, size: Double, tracking: Double, lineHeight: Double?, lineLimit: Int,
        limits: TextLayoutLimits
    ) throws(TextLayoutError) {
        let bytes = text.utf8.count
        guard bytes <= limits.maxTextUTF8Bytes else {
            throw .textTooLong(utf8Bytes: bytes, limit: limits.maxTextUTF8Bytes)
        }
        guard size.isFinite, limits.fontSizeRange.contains(size) else {
            throw .invalidArgument(argument: "size", value: size, allowed: Self.describe(limits.fontSizeRange))
        }
        guard tracking.isFinite, abs(tracking) <= limits.maxTrackingMagnitude else {
            throw .invalidArgument(argument: "tracking", value: tracking,
                                   allowed: Self.describe(-limits.maxTrackingMagnitude...limits.maxTrackingMagnitude))
        }
        if let lineHeight, !(lineHeight.isFinite && limits.lineHeightRange.contains(lineHeight)) {
            throw .invalidArgument(argument: "lineHeight", value: lineHeight,
                                   allowed: Self.describe(limits.lineHeightRange))
        }
        guard (0...limits.maxLineLimit).contains(lineLimit) else {
            throw .invalidArgument(argument: "lineLimit", value: Double(lineLimit),
                                   allowed: "0...\(limits.maxLineLimit) (0 = no limit)")
        }
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        "\(range.lowerBound)...\(range.upperBound)"
    }
}

/// Where one line's characters start and end, in points from the line's start.
private struct Span {
    var pen = 0.0
    var lowest = 0.0
    var highest = 0.0

    mutating func add(start: Double, end: Double) {
        lowest = min(lowest, start, end)
        highest = max(highest, start, end)
    }

    var width: Double { highest - lowest }
}

/// Running totals for one line, in font units of each face.
private struct LineUnits {
    var primary = 0
    var fallback = 0
    var characters = 0
    var missing = 0
    var fallbackGlyphs = 0
}

/// What the locked part of a measurement hands back.
private struct MeasuredLines: Sendable {
    var lines: [LineMetrics]
    var missing: Int
    var fallbackGlyphs: Int
}
