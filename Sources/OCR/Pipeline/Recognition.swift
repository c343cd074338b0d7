import Geometry
import Ink

/// The result of recognising one ink: text, alternatives and where every word lies on the board.
public struct Recognition: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var text: String
        /// 0...1
        public var confidence: Double
        public init(text: String, confidence: Double) {
            self.text = text
            self.confidence = confidence
        }
    }

    public struct Word: Sendable, Equatable {
        public var text: String
        public var confidence: Double
        /// In board coordinates.
        public var box: Rect
        /// Indexes into the request's strokes that make up this word.
        public var strokes: [Int]
        /// Whether the model that read it has it in its word list (marked only where that is
        /// asked: `auto`'s Latin reading, `AutoLanguage.markDictionaryWords`).
        var inDictionary = false
        public init(text: String, confidence: Double, box: Rect, strokes: [Int]) {
            self.text = text
            self.confidence = confidence
            self.box = box
            self.strokes = strokes
        }
    }

    public struct Line: Sendable, Equatable {
        public var text: String
        public var confidence: Double
        /// In board coordinates.
        public var box: Rect
        public var words: [Word]
        public init(text: String, confidence: Double, box: Rect, words: [Word]) {
            self.text = text
            self.confidence = confidence
            self.box = box
            self.words = words
        }
    }

    public struct Timings: Sendable, Equatable {
        public var renderMs: Double
        public var ocrMs: Double
        public init(renderMs: Double = 0, ocrMs: Double = 0) {
            self.renderMs = renderMs
            self.ocrMs = ocrMs
        }

        /// The work of two readings together.
        public static func + (a: Timings, b: Timings) -> Timings {
            Timings(renderMs: a.renderMs + b.renderMs, ocrMs: a.ocrMs + b.ocrMs)
        }
    }

    /// Lines joined with `\n`.
    public var text: String
    /// 0...1
    public var confidence: Double
    /// Up to 5 distinct readings, best first (the first is `text`).
    public var candidates: [Candidate]
    public var lines: [Line]
    public var timings: Timings

    public init(text: String, confidence: Double, candidates: [Candidate], lines: [Line], timings: Timings) {
        self.text = text
        self.confidence = confidence
        self.candidates = candidates
        self.lines = lines
        self.timings = timings
    }

    /// The result for ink that holds nothing to read.
    public static let empty = Recognition(text: "", confidence: 0, candidates: [], lines: [], timings: Timings())
}

/// Recognises ink asynchronously on OCR workers (never on the caller's thread).
public protocol InkRecognizing: Sendable {
    /// Starts recognising; `completion` runs once, on a worker thread (never the caller's; `auto`
    /// may hand it to a thread of its own). Throws at once, without calling `completion`, when the
    /// request cannot be queued (overload, unknown language).
    func recognize(_ request: RecognitionRequest, deadlineMilliseconds: Int,
                   completion: @escaping @Sendable (Result<Recognition, OCRError>) -> Void) throws(OCRError)
    /// Installed languages.
    var languages: [String] { get }
    /// Request names read by another model (name → model).
    var languageAliases: [String: String] { get }
    /// Models read by another model under a character hint (model → hint → model).
    var hintModels: [String: [String: String]] { get }
    /// False while every queue slot is taken: a new request would be refused, so callers can answer
    /// 503 before doing any work for it.
    var hasCapacity: Bool { get }
    /// The exact line images a `fast` recognition with `hint` in `language` reads for these
    /// strokes (for debugging); `nil` or an unknown language splits lines stroke by stroke.
    func lineImages(for strokes: [Stroke], hint: CharacterHint, language: String?) -> [GrayImage]
    /// Whether recognitions can run now (readiness).
    var isReady: Bool { get }
    /// Counters of the workers behind it (metrics).
    var metrics: OCRPoolMetrics { get }
    /// Finishes or cancels queued work and stops the workers.
    func shutdown()
}

extension InkRecognizing {
    /// None by default.
    public var hintModels: [String: [String: String]] { [:] }
}
