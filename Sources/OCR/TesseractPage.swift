import Geometry

/// One ranked alternative for a symbol, as reported by Tesseract's choice iterator.
public struct SymbolChoice: Sendable, Hashable {
    /// The alternative's text (usually one character).
    public var text: String
    /// Tesseract's confidence for this alternative, scaled to 0...1.
    public var confidence: Double

    public init(text: String, confidence: Double) {
        self.text = text
        self.confidence = confidence
    }
}

/// One recognised symbol (usually a character) with its alternatives.
public struct RecognizedSymbol: Sendable, Hashable {
    public var text: String
    /// 0...1.
    public var confidence: Double
    /// In image pixels, top-left origin.
    public var box: Rect
    /// Ranked alternatives, best first. The first one is normally `text` itself.
    public var choices: [SymbolChoice]

    public init(text: String, confidence: Double, box: Rect, choices: [SymbolChoice]) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.choices = choices
    }
}

/// One recognised word with its symbols.
public struct RecognizedWord: Sendable, Hashable {
    public var text: String
    /// 0...1.
    public var confidence: Double
    /// In image pixels, top-left origin.
    public var box: Rect
    /// Index of the text line the word belongs to (0 for single-line modes).
    public var line: Int
    public var symbols: [RecognizedSymbol]
    /// Whether the recogniser put a space before this word on its line; nil when it is not known.
    /// Tesseract gives each Hangul syllable as a word of its own, and only this says which of
    /// them the network read as the start of a written word.
    public var spaceBefore: Bool?

    public init(text: String, confidence: Double, box: Rect, line: Int, symbols: [RecognizedSymbol],
                spaceBefore: Bool? = nil) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.line = line
        self.symbols = symbols
        self.spaceBefore = spaceBefore
    }
}

/// Everything Tesseract said about one image.
public struct TesseractPage: Sendable, Hashable {
    /// Words joined by single spaces, lines by `\n`; no trailing newline.
    public var text: String
    /// Tesseract's mean text confidence (`TessBaseAPIMeanTextConf`), scaled to 0...1; 0 when no text.
    public var meanConfidence: Double
    public var words: [RecognizedWord]
    /// Wall-clock time spent in `TessBaseAPIRecognize` and reading the results.
    public var elapsed: Duration

    public init(text: String, meanConfidence: Double, words: [RecognizedWord], elapsed: Duration) {
        self.text = text
        self.meanConfidence = meanConfidence
        self.words = words
        self.elapsed = elapsed
    }

    /// Rebuilds `text` from words: spaces within a line, newlines between lines.
    static func joinedText(of words: [RecognizedWord]) -> String {
        var text = ""
        var previousLine: Int?
        for word in words {
            if let previousLine {
                text += word.line == previousLine ? " " : "\n"
            }
            text += word.text
            previousLine = word.line
        }
        return text
    }
}
