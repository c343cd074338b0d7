import Store
import TextLayout

/// Defaults for a new sticker: a bold sans at 28 pt, centred, plain (no outline).
enum StickerDefaults {
    static let fontFamily = FontFamily.default
    static let fontSize = 28.0
    static let fillColor = "#000000"
    static let style = StickerRecord.Style(strokeWidth: 0, strokeColor: "#FFFFFF", fillColor: fillColor, kerning: 0,
                                           lineHeight: 1, alignment: .center, lineLimit: nil)
    /// Limits on style values accepted from clients.
    static let fontSizeRange = 1.0...512.0
    static let strokeWidthRange = 0.0...64.0
    static let kerningRange = -64.0...256.0
    /// `style.lineHeight` is a multiple of the font's natural line height.
    static let lineHeightRange = 0.25...10.0
    static let lineLimitRange = 0...1000
    static let maxLengthRange = 1...10_000
    /// Longest text a sticker may hold, in characters.
    static let maxTextCharacters = 10_000
}
