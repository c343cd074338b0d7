import Ink

/// What to recognise: validated strokes plus the caller's hints.
public struct RecognitionRequest: Sendable {
    public enum Quality: String, Sendable, CaseIterable {
        /// One render per line.
        case fast
        /// One render per line; a line read with a confidence under its threshold
        /// (`RecognitionOptions.rereadThreshold`) is read again in `rereadRenders`, and the
        /// reading they agree on most wins. The service's default.
        case auto
        /// Several renders per line, keeping the reading they agree on most (3–4× the OCR time).
        case best
    }

    /// Strokes in writing order, board coordinates (y down).
    public var strokes: [Stroke]
    /// An installed language (traineddata name), e.g. `eng`.
    public var language: String
    /// Characters the text may contain; `nil` means no constraint.
    public var charset: CharacterHint?
    /// A client vocabulary (e.g. the names used on a board), applied only where it helps.
    public var words: [String]
    public var quality: Quality
    /// Line readings another job of the same request has made (`auto`).
    var firstReadings: FirstReadings?

    public init(strokes: [Stroke], language: String, charset: CharacterHint? = nil, words: [String] = [],
                quality: Quality = .auto) {
        self.strokes = strokes
        self.language = language
        self.charset = charset
        self.words = words
        self.quality = quality
    }
}
