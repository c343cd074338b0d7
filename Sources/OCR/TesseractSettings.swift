/// Which Tesseract engine a handle runs.
public enum TesseractEngine: Sendable, Hashable {
    /// The LSTM line recogniser only: Debian's `tessdata_fast` models contain nothing else.
    case lstmOnly
}

/// Tesseract variables that shape recognition of short handwritten lines.
///
/// Dictionary variables (`load_*_dawg`) are read while the model is loaded, so they only take
/// effect when passed to `TessBaseAPIInit4`; setting them afterwards is silently ignored. The
/// remaining variables are set on the handle after initialisation.
public struct TesseractSettings: Sendable, Hashable {
    /// `load_system_dawg`: the LSTM word list biases the beam search towards dictionary words.
    ///
    /// Notes are full of names, dates and abbreviations; see the package notes for the
    /// measured effect on the synthetic corpus.
    public var loadWordDictionary: Bool
    /// `load_punc_dawg`: patterns of punctuation around words.
    public var loadPunctuationPatterns: Bool
    /// `load_number_dawg`: patterns of digits and separators.
    public var loadNumberPatterns: Bool
    /// `tessedit_do_invert`: when a line scores badly Tesseract 5 recognises it a second time
    /// inverted (white on black). Rasterised ink is always dark on white, so the second pass
    /// only costs time; it is off by default.
    public var retryInverted: Bool
    /// `lstm_choice_mode = 2` and `lstm_choice_iterations`: keep per-symbol alternatives from the
    /// LSTM beam so the choice iterator has something to rank. 0 disables alternatives.
    public var alternativesPerSymbol: Int
    /// The resolution reported to Tesseract. Raw buffers carry none, and without one Tesseract
    /// warns on every image and guesses 70 dpi.
    public var sourceResolution: Int
    /// Further variables passed to `TessBaseAPIInit4`, applied after the ones above.
    public var extraVariables: [String: String]

    public init(
        loadWordDictionary: Bool = true,
        loadPunctuationPatterns: Bool = true,
        loadNumberPatterns: Bool = true,
        retryInverted: Bool = false,
        alternativesPerSymbol: Int = 5,
        sourceResolution: Int = 300,
        extraVariables: [String: String] = [:]
    ) {
        self.loadWordDictionary = loadWordDictionary
        self.loadPunctuationPatterns = loadPunctuationPatterns
        self.loadNumberPatterns = loadNumberPatterns
        self.retryInverted = retryInverted
        self.alternativesPerSymbol = alternativesPerSymbol
        self.sourceResolution = sourceResolution
        self.extraVariables = extraVariables
    }

    /// The name/value pairs handed to `TessBaseAPIInit4`, in a stable order.
    var initVariables: [(name: String, value: String)] {
        var pairs: [(String, String)] = [
            ("load_system_dawg", loadWordDictionary ? "1" : "0"),
            ("load_punc_dawg", loadPunctuationPatterns ? "1" : "0"),
            ("load_number_dawg", loadNumberPatterns ? "1" : "0"),
            // Only used by the legacy engine; never worth its memory here.
            ("load_freq_dawg", "0"),
            ("tessedit_do_invert", retryInverted ? "1" : "0"),
            ("lstm_choice_mode", alternativesPerSymbol > 0 ? "2" : "0"),
            ("lstm_choice_iterations", String(max(alternativesPerSymbol, 1))),
        ]
        for name in extraVariables.keys.sorted() {
            pairs.append((name, extraVariables[name] ?? ""))
        }
        return pairs
    }
}
