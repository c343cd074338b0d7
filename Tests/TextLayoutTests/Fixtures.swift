import TextLayout

/// One font library for the whole test run: loading it is the expensive part, and sharing it also exercises the
/// library's thread safety, since Swift Testing runs tests in parallel.
enum Fixtures {
    static let library: Result<FontLibrary, TextLayoutError> = Result { () throws(TextLayoutError) in
        try FontLibrary()
    }

    /// A library with no fallback faces, so characters DejaVu lacks measure as `.notdef` on every machine.
    static let libraryWithoutFallback: Result<FontLibrary, TextLayoutError> = Result { () throws(TextLayoutError) in
        try FontLibrary(configuration: TextLayoutConfiguration(fallbackFontDirectory: nil))
    }

    static func measurer() throws -> TextMeasurer {
        TextMeasurer(library: try library.get())
    }

    static func measurerWithoutFallback() throws -> TextMeasurer {
        TextMeasurer(library: try libraryWithoutFallback.get())
    }

    /// Whether Debian's fonts-nanum is installed where the default configuration looks for it.
    static var hasNanum: Bool {
        (try? library.get().fallbackFamilies.contains(.sansBold)) ?? false
    }

    /// Printable ASCII, the alphabet most property tests draw from.
    static let printableASCII: [Character] = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
}

/// A small deterministic generator (SplitMix64), so property tests explore many inputs yet fail reproducibly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
