import Locking

/// `"lang": "auto"`: no language to choose. The ink is read by the Latin and the Korean model at
/// once (one job each on the worker pool, so with free workers it takes about as long as the
/// slower model alone), and the Korean reading is kept when the writing looks Korean, else the
/// Latin one:
///
/// - the Korean model wrote mostly Hangul (a syllable counts as 2.5 Latin letters: it is about
///   as wide as two or three); it writes none for most Latin ink, having learnt Latin letters
///   and digits for notes;
/// - its reading fills the ink (a syllable is about as wide as the line is high, a Latin letter
///   or digit half of that): Latin ink it misreads comes back as one or two syllables;
/// - the Latin model is not sure (confidence under 0.85): a short Latin word ("of", "2", "#")
///   can look like one syllable, but the Latin model reads Hangul as noise it is unsure of.
///
/// The models' confidences alone do not decide: the Latin model reads Hangul as noise about as
/// confident as the Korean model's reading. The three rules and their thresholds were chosen on
/// held-out ink (training/RUNS.md, "Reading without a language").
public enum AutoLanguage {
    /// The request name.
    public static let name = "auto"

    static let syllableWeight = 2.5
    static let minimumFill = 0.4
    static let latinSureAbove = 0.85

    /// The reading kept from the Latin model's and the Korean model's readings of the same ink;
    /// its timings are both readings' work.
    public static func choose(latin: Recognition, korean: Recognition) -> Recognition {
        decide(latin: latin, korean: korean).reading
    }

    /// `choose`, with the index of the language chosen (0 Latin, 1 Korean).
    static func decide(latin: Recognition, korean: Recognition) -> (reading: Recognition, index: Int) {
        let index = looksKorean(latin: latin, korean: korean) ? 1 : 0
        var chosen = index == 1 ? korean : latin
        chosen.timings = latin.timings + korean.timings
        return (chosen, index)
    }

    static func looksKorean(latin: Recognition, korean: Recognition) -> Bool {
        if latin.text.isEmpty { return !korean.text.isEmpty }
        return latin.confidence < latinSureAbove && isMostlyHangul(korean.text) && fill(korean, latin) >= minimumFill
    }

    static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }

    /// Whether Hangul syllables, weighted, are at least half of the letters of `text` (digits,
    /// punctuation and spaces do not count).
    static func isMostlyHangul(_ text: String) -> Bool {
        var hangul = 0.0, latin = 0.0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            if isHangulSyllable(scalar) { hangul += syllableWeight } else { latin += 1 }
        }
        return hangul > 0 && hangul >= 0.5 * (hangul + latin)
    }

    /// How much of the ink the Korean reading's characters would fill: their widths in line
    /// heights (a syllable 1, any other character 0.5, a space 0.3) over the lines' lengths (the
    /// box of every line of both readings, cut into the Korean reading's number of lines).
    static func fill(_ korean: Recognition, _ latin: Recognition) -> Double {
        let boxes = (korean.lines + latin.lines).map(\.box)
        guard let first = boxes.first else { return 0 }
        let union = boxes.dropFirst().reduce(first) { $0.union($1) }
        let lines = Double(max(1, korean.lines.count))
        let length = union.width / max(1, union.height / lines) * lines
        var width = 0.0
        for line in korean.lines {
            for scalar in line.text.unicodeScalars {
                width += isHangulSyllable(scalar) ? 1 : (scalar.properties.isWhitespace ? 0.3 : 0.5)
            }
        }
        return width / max(length, 1e-6)
    }
}

/// Collects the Latin (index 0) and the Korean (index 1) model's results and calls the completion
/// once, when the second arrives: the choice and its index when both succeeded, the one that did,
/// or the first failure. Abandoned (the request could not be queued whole), it calls nothing.
final class AutoLanguageJoin: Sendable {
    private struct State {
        var results: [Result<Recognition, OCRError>?]
        var abandoned = false
    }

    private let state: Lock<State>
    private let completion: @Sendable (Result<(reading: Recognition, index: Int), OCRError>) -> Void

    init(completion: @escaping @Sendable (Result<(reading: Recognition, index: Int), OCRError>) -> Void) {
        state = Lock(State(results: [nil, nil]))
        self.completion = completion
    }

    func deliver(_ index: Int, _ result: Result<Recognition, OCRError>) {
        let all = state.withLock { s -> [Result<Recognition, OCRError>]? in
            s.results[index] = result
            guard !s.abandoned, s.results.allSatisfy({ $0 != nil }) else { return nil }
            return s.results.compactMap { $0 }
        }
        guard let all else { return }
        switch (all[0], all[1]) {
        case (.success(let latin), .success(let korean)):
            completion(.success(AutoLanguage.decide(latin: latin, korean: korean)))
        case (.success(let latin), .failure): completion(.success((latin, 0)))
        case (.failure(let error), .success(let korean)):
            // Alone, the Korean reading stands only for Hangul: it reads Latin ink as Hangul at times.
            completion(AutoLanguage.isMostlyHangul(korean.text) ? .success((korean, 1)) : .failure(error))
        case (.failure(let error), .failure): completion(.failure(error))
        }
    }

    func abandon() { state.withLock { $0.abandoned = true } }
}
