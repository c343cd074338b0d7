/// Where fonts live and how much work one measurement may cost.
public struct TextLayoutConfiguration: Sendable, Equatable {
    /// The directory holding the DejaVu files named by ``FontFamily/fileName``.
    public var fontDirectory: String
    /// The directory holding the fallback faces named by ``FontFamily/fallbackFileName``, or `nil` for none.
    ///
    /// Fallback faces are optional: a missing directory or file is not an error, characters DejaVu lacks then measure
    /// as DejaVu's `.notdef` box (see ``TextMeasurer``). ``FontLibrary/fallbackFamilies`` tells which were loaded.
    public var fallbackFontDirectory: String?
    /// Bounds on measurement inputs.
    public var limits: TextLayoutLimits

    /// Creates a configuration; the defaults are Debian's install locations.
    public init(
        fontDirectory: String = "/usr/share/fonts/truetype/dejavu",
        fallbackFontDirectory: String? = "/usr/share/fonts/truetype/nanum",
        limits: TextLayoutLimits = TextLayoutLimits()
    ) {
        self.fontDirectory = fontDirectory
        self.fallbackFontDirectory = fallbackFontDirectory
        self.limits = limits
    }
}

/// Bounds that keep one measurement cheap and its result meaningful; requests outside them get typed errors.
public struct TextLayoutLimits: Sendable, Equatable {
    /// The longest text measured, in UTF-8 bytes (default 16 KiB: far more than any sticker, small enough that a
    /// measurement stays well under a millisecond).
    public var maxTextUTF8Bytes: Int
    /// Allowed font sizes in points (default 1...1024).
    public var fontSizeRange: ClosedRange<Double>
    /// Allowed explicit line heights in points (default 0.25...8192: a quarter of a 1-point
    /// font's natural line to ten times that of a 512-point one).
    public var lineHeightRange: ClosedRange<Double>
    /// The largest tracking magnitude in points (default 1024); negative tracking tightens text.
    public var maxTrackingMagnitude: Double
    /// The largest line limit accepted (default 10,000); 0 always means "no limit".
    public var maxLineLimit: Int
    /// How many kerning pairs each face remembers (default 16,384). Pairs are bounded by the font anyway; the cap
    /// keeps a hostile stream of distinct pairs from growing memory.
    public var maxCachedKerningPairs: Int

    /// Creates limits; every parameter has the documented default.
    public init(
        maxTextUTF8Bytes: Int = 16_384,
        fontSizeRange: ClosedRange<Double> = 1...1024,
        lineHeightRange: ClosedRange<Double> = 0.25...8192,
        maxTrackingMagnitude: Double = 1024,
        maxLineLimit: Int = 10_000,
        maxCachedKerningPairs: Int = 16_384
    ) {
        self.maxTextUTF8Bytes = maxTextUTF8Bytes
        self.fontSizeRange = fontSizeRange
        self.lineHeightRange = lineHeightRange
        self.maxTrackingMagnitude = maxTrackingMagnitude
        self.maxLineLimit = maxLineLimit
        self.maxCachedKerningPairs = maxCachedKerningPairs
    }
}
