/// Which Tesseract engine a handle runs.
public enum TesseractEngine: Sendable, Hashable {
    /// The LSTM line recogniser only: Debian's `tessdata_fast` models contain nothing else.
    case lstmOnly
}

/// Tesseract variables that shape recognition of short handwritten lines.
///
/// Measured on the 334 single-line samples of the synthetic corpus (print and script fonts,
/// 32 px ink height), Tesseract 5.3.0 with Debian's `eng`:
///
/// | variant | exact lines | character error rate | time |
/// | --- | --- | --- | --- |
/// | these defaults | 164 | 16.1 % | 1.51 s |
/// | `load_system_dawg`, `load_punc_dawg`, `load_number_dawg` = 0 | 164 | 16.1 % | 1.49 s |
/// | `lstm_use_matrix` = 0 (no LSTM dictionary) | 141 | 16.9 % | 1.47 s |
/// | `tessedit_do_invert` = 1 | 164 | 16.1 % | 1.60 s |
/// | no per-symbol alternatives | 164 | 16.1 % | 1.32 s |
///
/// The `load_*_dawg` variables change nothing for the LSTM engine: its recogniser builds its own
/// dictionary object with default parameters and only copies the user-words settings, so they are
/// not offered here. The LSTM dictionary can only be switched off as a whole, with
/// `lstm_use_matrix = 0` at initialisation, and that costs accuracy even on notes full of names.
public struct TesseractSettings: Sendable, Hashable {
    /// `lstm_use_matrix` (read at initialisation only): run the LSTM beam search with the
    /// model's word, punctuation and number dictionaries. Off = no dictionary at all.
    public var useDictionary: Bool
    /// `tessedit_do_invert`: when a line scores badly Tesseract 5 recognises it a second time
    /// inverted (white on black). Rasterised ink is always dark on white, so the second pass
    /// only costs time (+6 % measured); it is off by default.
    public var retryInverted: Bool
    /// `lstm_choice_iterations`: how many extra beam-search passes collect ranked alternatives
    /// per symbol (each pass adds at most one). They cost ~15 % of recognition time, so they are
    /// only computed when a recognition asks for them. 0 disables them.
    public var alternativesPerSymbol: Int
    /// The resolution reported to Tesseract. Raw buffers carry none, and without one Tesseract
    /// warns on every image and guesses.
    public var sourceResolution: Int
    /// Further variables passed to `TessBaseAPIInit4`, applied after the ones above.
    public var extraVariables: [String: String]

    public init(
        useDictionary: Bool = true,
        retryInverted: Bool = false,
        alternativesPerSymbol: Int = 5,
        sourceResolution: Int = 300,
        extraVariables: [String: String] = [:]
    ) {
        self.useDictionary = useDictionary
        self.retryInverted = retryInverted
        self.alternativesPerSymbol = max(alternativesPerSymbol, 0)
        self.sourceResolution = sourceResolution
        self.extraVariables = extraVariables
    }

    /// The name/value pairs handed to `TessBaseAPIInit4`, in a stable order.
    var initVariables: [(name: String, value: String)] {
        var pairs: [(String, String)] = [
            ("lstm_use_matrix", useDictionary ? "1" : "0"),
            ("tessedit_do_invert", retryInverted ? "1" : "0"),
            // Alternatives are switched on per recognition (see `TesseractHandle.recognize`).
            ("lstm_choice_mode", "0"),
            ("lstm_choice_iterations", String(max(alternativesPerSymbol, 1))),
            // A text line's text keeps the spaces the network read between words, where it
            // would otherwise put one between every two words (every Hangul syllable is one).
            ("preserve_interword_spaces", "1"),
        ]
        for name in extraVariables.keys.sorted() {
            pairs.append((name, extraVariables[name] ?? ""))
        }
        return pairs
    }
}
