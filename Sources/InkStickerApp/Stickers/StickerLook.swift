import Store

/// What a client sets of a sticker's look: font, style and the input rules of a field. The
/// defaults are a new sticker's; `StickerAppearance` decodes a request onto it.
struct StickerLook: Sendable, Equatable {
    var fontFamily = StickerDefaults.fontFamily.rawValue
    var fontSize = StickerDefaults.fontSize
    var style = StickerDefaults.style
    var maxLength: Int?
    var charset: String?
}

extension StickerRecord {
    /// The record's look, read and written as one value.
    var look: StickerLook {
        get { StickerLook(fontFamily: fontFamily, fontSize: fontSize, style: style, maxLength: maxLength, charset: charset) }
        set {
            fontFamily = newValue.fontFamily
            fontSize = newValue.fontSize
            style = newValue.style
            maxLength = newValue.maxLength
            charset = newValue.charset
        }
    }
}
