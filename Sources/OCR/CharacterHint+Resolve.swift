/// How one symbol fared under a character hint.
public enum SymbolResolution: Sendable, Hashable {
    /// The best reading is allowed and kept.
    case kept
    /// The best reading is not allowed; this ranked alternative is.
    case alternative(String, confidence: Double)
    /// Neither the best reading nor any alternative is allowed; the best reading was mapped
    /// through `LookAlikes`.
    case lookAlike(String)
    /// Nothing allowed could be made of the symbol.
    case dropped
}

/// A page after applying a character hint, with what was changed.
public struct HintedPage: Sendable, Hashable {
    /// The page with resolved symbols; words left without symbols are removed.
    public var page: TesseractPage
    public var alternatives: Int
    public var lookAlikes: Int
    public var dropped: Int

    /// Whether the hint changed anything.
    public var changed: Bool { alternatives + lookAlikes + dropped > 0 }
}

extension CharacterHint {
    /// Confidence kept by a symbol replaced with a ranked alternative, as a fraction of the best
    /// reading's confidence.
    ///
    /// Tesseract's own confidence for a non-best LSTM choice is `100 - 5 × rating`, which is 0 for
    /// nearly every alternative, so it says nothing about how likely the alternative is once
    /// the best reading is ruled out. The best reading's confidence does say how clearly a
    /// character was written there; the model preferred another class, so it is discounted.
    public static let alternativeConfidenceFactor = 0.75
    /// The same for a look-alike substitution, which no model ranked: a guess about intent.
    public static let lookAlikeConfidenceFactor = 0.5

    /// Resolves one symbol whose best reading may not be allowed.
    ///
    /// What an unallowed reading most likely was depends on what kind of mark it is:
    /// - **Separators** (`:` `.` `-` `/` `$` ... and their variants `~` `—` `;`): the writer meant
    ///   a separator and the model read it as one. It becomes its allowed look-alike (`~` → `-`
    ///   in `.number`, `/` → `1` and `$` → `5` in `.digits`) or is dropped (`10:15` → `1015`
    ///   in `.digits`). The LSTM's alternatives are not consulted: for a clearly written
    ///   separator they are near-zero-confidence digits (`:` → `2`) that would invent digits.
    /// - **Letters and other symbols** (`O` `S` `B` `g` `©` `?`): a digit whose shape the model
    ///   confused with a letter. The best-ranked allowed *digit* among the model's alternatives
    ///   wins (it saw the shape); then the look-alike table; then any other allowed alternative
    ///   (a letter is rarely a misread currency sign); else the symbol is dropped.
    public func resolve(_ symbol: RecognizedSymbol) -> SymbolResolution {
        if allows(symbol.text) { return .kept }
        let lookAlike = String(symbol.text.compactMap { LookAlikes.replacement(for: $0, under: self) })
        if LookAlikes.isSeparatorLike(symbol.text) {
            return lookAlike.isEmpty ? .dropped : .lookAlike(lookAlike)
        }
        let allowed = symbol.choices.filter { allows($0.text) }
        if let digit = allowed.first(where: { $0.text.allSatisfy(Self.isDigit) }) {
            return .alternative(digit.text, confidence: digit.confidence)
        }
        if !lookAlike.isEmpty { return .lookAlike(lookAlike) }
        if let other = allowed.first {
            return .alternative(other.text, confidence: other.confidence)
        }
        return .dropped
    }

    /// Applies the hint to every symbol of a page, rebuilding word texts, word confidences and
    /// the page text. `.text` returns the page unchanged.
    public func apply(to page: TesseractPage) -> HintedPage {
        var result = HintedPage(page: page, alternatives: 0, lookAlikes: 0, dropped: 0)
        guard self != .text else { return result }
        var words: [RecognizedWord] = []
        for word in page.words {
            var symbols: [RecognizedSymbol] = []
            var confidence = word.confidence
            for symbol in word.symbolsOrCharacters {
                var resolved = symbol
                switch resolve(symbol) {
                case .kept:
                    break
                case let .alternative(text, _):
                    result.alternatives += 1
                    resolved.text = text
                    resolved.confidence = symbol.confidence * Self.alternativeConfidenceFactor
                case let .lookAlike(text):
                    result.lookAlikes += 1
                    resolved.text = text
                    resolved.confidence = symbol.confidence * Self.lookAlikeConfidenceFactor
                case .dropped:
                    result.dropped += 1
                    continue
                }
                // A word is only as sure as its least sure substitution.
                if resolved.text != symbol.text { confidence = min(confidence, resolved.confidence) }
                symbols.append(resolved)
            }
            guard !symbols.isEmpty else { continue }
            var hinted = word
            hinted.symbols = symbols
            hinted.text = symbols.map(\.text).joined()
            hinted.confidence = confidence
            words.append(hinted)
        }
        guard result.changed else { return result }
        result.page.words = words
        result.page.text = TesseractPage.joinedText(of: words)
        result.page.meanConfidence = Self.characterWeightedConfidence(of: words)
        return result
    }

    /// Tesseract's mean text confidence weighs words by their length; the same is done here.
    static func characterWeightedConfidence(of words: [RecognizedWord]) -> Double {
        let characters = words.reduce(0) { $0 + $1.text.count }
        guard characters > 0 else { return 0 }
        let weighted = words.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) }
        return weighted / Double(characters)
    }
}

extension RecognizedWord {
    /// The word's symbols, or, if Tesseract reported none, one symbol per character of the word
    /// without alternatives (so that hints still apply).
    var symbolsOrCharacters: [RecognizedSymbol] {
        guard symbols.isEmpty else { return symbols }
        return text.map { RecognizedSymbol(text: String($0), confidence: confidence, box: box, choices: []) }
    }
}
