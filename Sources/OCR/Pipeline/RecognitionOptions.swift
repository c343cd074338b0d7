/// How one line of ink is drawn for Tesseract. Lengths relative to the line's ink height.
public struct RenderVariant: Sendable, Hashable {
    /// Height the line's ink is scaled to, in pixels.
    public var inkHeight: Double
    /// Pen diameter as a fraction of `inkHeight`.
    public var penWidthRatio: Double
    /// White margin on every side as a fraction of `inkHeight`.
    public var paddingRatio: Double

    /// When set, the line is placed by its writing zones instead of its ink height: the body
    /// (baseline to x-height line) becomes `bodyRatio × inkHeight` high (see `LineZones`).
    public var bodyRatio: Double?
    /// With `bodyRatio`: where the baseline sits, as a fraction of `inkHeight` below the margin.
    public var baselineRatio: Double
    /// Overrides whether the line is sheared upright (`nil`: as the hint's profile says).
    public var correctsSlant: Bool?

    /// A variant; the defaults are the `fast` rendering.
    public init(inkHeight: Double = 24, penWidthRatio: Double = 0.08, paddingRatio: Double = 0.25,
                bodyRatio: Double? = nil, baselineRatio: Double = 0.75, correctsSlant: Bool? = nil) {
        self.bodyRatio = bodyRatio
        self.correctsSlant = correctsSlant
        self.baselineRatio = baselineRatio
        self.inkHeight = inkHeight
        self.penWidthRatio = penWidthRatio
        self.paddingRatio = paddingRatio
    }

    /// Placed by its writing zones: the body (baseline to x-height line) 0.45 of the ink height.
    public static let bodyZones = RenderVariant(bodyRatio: 0.45, baselineRatio: 0.75)
    /// Sheared upright.
    public static let upright = RenderVariant(correctsSlant: true)
    /// A thinner pen, placed by writing zones with a slightly smaller body.
    public static let thinPenZones = RenderVariant(penWidthRatio: 0.06, bodyRatio: 0.42, baselineRatio: 0.72)
}

/// Every knob of the recognition pipeline, with the defaults the service runs with.
///
/// The defaults were chosen on tuning data only (`corpus/train` and generated synthetic ink);
/// see `bench/recognize.sh` and the package notes for the measurements.
public struct RecognitionOptions: Sendable, Hashable {
    /// The single rendering used by `quality: fast`, and first by `quality: auto`.
    public var render: RenderVariant
    /// The renderings read by `quality: best`; per line, the reading they agree on most wins
    /// (see `consensusConfidenceWeight`). The first should be `render`: it wins ties.
    public var bestRenders: [RenderVariant]
    /// How much a reading's own confidence counts against its disagreement with the other
    /// renderings' readings when `quality: best` picks one.
    public var consensusConfidenceWeight: Double
    /// The renderings `quality: auto` reads an unsure line in after `render`: two of
    /// `bestRenders`. On held-out ink the reading of the three agrees about as well with the truth as
    /// that of all four (the one left out, `bodyZones`, helps Latin words of some collections and
    /// costs others) for two thirds of the extra time (training/RUNS.md, "Levers").
    public var rereadRenders: [RenderVariant]
    /// Under `quality: auto`, a line of text (no character hint) read as one word with a
    /// confidence below this is read again in `rereadRenders`. Default 0.4: it reads a fifth to
    /// a third of held-out persons' words again (training/RUNS.md, "Levers").
    public var textRereadBelow: Double
    /// The same for each word of a line of text read as several words, read again on its own
    /// from its strokes (a whole line read again costs in proportion to its length). Default
    /// 0.5: with the ninth run's network, held-out persons' text segments read 2.80 points better
    /// and composed lines 1.75 (the collections' 3.83 and 2.10), single words the same, but the
    /// median text line takes about twice its time and lines drawn from unseen handwriting fonts
    /// read 2.19 points worse (training/RUNS.md, "Levers"); 0 turns it off.
    public var lineRereadBelow: Double
    /// The same under the `number` hint, whatever the word count; its readings are surer (the
    /// hint leaves fewer choices): default 0.9, which reads about a quarter of held-out numbers
    /// again. Under the `digits` hint a line is read once: rereading held-out digits (mostly one
    /// glyph) gained nothing at any threshold.
    public var numberRereadBelow: Double
    /// How Tesseract reads a line image of text (no character hint).
    public var textLineMode: PageSegmentationMode
    /// How Tesseract reads a line image under the `digits` and `number` hints.
    public var numericLineMode: PageSegmentationMode
    /// Whether text lines are sheared upright before rendering.
    public var textCorrectsSlant: Bool
    /// Whether lines under the `digits` and `number` hints are sheared upright.
    public var numericCorrectsSlant: Bool
    /// How much wider than its proportions a text line is drawn (`RenderOptions.widthScale`).
    /// Handwriting is narrower than print, and at Tesseract's line height its letters get too
    /// few columns: on held-out writers 1.25 read text lines 3.5 to 6 points better and single
    /// words as well or slightly better (training/RUNS.md, "Levers"). A lone glyph and ink read
    /// by syllable blocks (Hangul) are never stretched.
    public var textWidthScale: Double
    /// The stretch of long text lines (`RenderOptions.longLineWidthScale`: lines of at least 10
    /// heights get it, lines of at most 4 `textWidthScale`, linear between). nil: every text
    /// line gets `textWidthScale`. Longer lines wanted more stretch than single words: on
    /// held-out writers 1.4 read text segments 1.5 points better and words the same (1.55 read
    /// text better still but words and held-out English worse; training/RUNS.md, "Levers").
    public var longTextWidthScale: Double?
    /// The same for lines under the `number` hint. Lines under the `digits` hint are never
    /// stretched: at 1.15 a printed phone number's hyphen read as a digit under that hint.
    public var numericWidthScale: Double
    /// Ink of at most `singleGlyphMaxStrokes` strokes, at most this many times as wide as it
    /// is high, is one glyph: read as one line whatever the segmenter makes of its strokes, in
    /// Tesseract's single-character mode (PSM 10; with the LSTM engine it reads like PSM 7), and
    /// under the `digits` hint reduced to its most confident symbol.
    public var singleGlyphMaxAspect: Double
    /// See `singleGlyphMaxAspect`.
    public var singleGlyphMaxStrokes: Int
    /// Cut strokes where the pen jumped without being tracked (see `StrokeRepair`).
    public var repairsStrokes: Bool
    /// Smooth the staircase or polygon strokes of a coarse digitiser before they are drawn
    /// (see `StrokeSmoothing`); fine ink is never changed.
    public var smoothsCoarseInk: Bool
    /// Under the `number` hint, squeeze strokes far taller than the digits (slashes, brackets)
    /// to about their height before the line is drawn (see `TallMarks`).
    public var squeezesTallMarks: Bool
    /// Drop marks no small stroke was drawn for and unify dashes (see `RecognitionCleanup`).
    public var cleansMarks: Bool
    /// Read a request under a character hint with the model's hint model when one is installed
    /// (`TessdataCatalog.model(for:hint:)`: `ink-number` under the `number` hint). Default true:
    /// the number network read held-out persons' and collections' numbers 0.8 points better
    /// (training/RUNS.md, "Levers").
    public var usesHintModels: Bool
    /// How the client's vocabulary (`hints.words`) may replace recognised words.
    public var vocabulary: VocabularyOptions
    /// For which models ink is split into lines by blocks of strokes (see `SyllableBlocks` in
    /// Ink: a Hangul syllable, a Latin letter with its dot or bar) instead of single strokes.
    /// Default the Korean models. For Latin, one-line held-out ink split better by blocks, but
    /// two lines of held-out ink stacked closely merged more often (training/RUNS.md, "Levers").
    public var syllableBlocks: SyllableBlockPolicy
    /// For ink split by syllable blocks: its margin scaled by this, its ink drawn taller so the
    /// image stays as high (`LineImager.blockMarginScale`). Default 1: a Korean network trained
    /// at 0.25 read the training fonts' kinds of ink better but unseen hands worse
    /// (training/RUNS.md, Korean "Levers"). A model must be read at the scale it was trained at.
    public var blockMarginScale: Double
    /// For ink split by syllable blocks: how many times as high as other lines' its whole image
    /// is drawn (`LineImager.blockInkScale`). Default `.model`: as high as the model's network
    /// reads lines (48 pixels for the Korean models, 38 for other lines). A model must be read
    /// at the scale it was trained at.
    public var blockInkScale: BlockInkScale

    /// The renderings a request of `quality` reads, in order: `auto` reads `render` first, then
    /// `rereadRenders` if it must.
    public func renders(for quality: RecognitionRequest.Quality) -> [RenderVariant] {
        switch quality {
        case .fast: [render]
        case .best: bestRenders
        case .auto: [render] + rereadRenders.filter { $0 != render }
        }
    }

    /// Under `quality: auto`: a line first read as `words` words under `hint` is read again
    /// whole when its confidence is below this (a line of several words never is: its unsure
    /// words are, on their own, `lineRereadBelow`).
    public func rereadThreshold(hint: CharacterHint, words: Int) -> Double {
        switch hint {
        case .text: words <= 1 ? textRereadBelow : 0
        case .number: numberRereadBelow
        case .digits: 0
        }
    }

    /// Whether `quality: auto` would read some line of `recognition` again: a line under its
    /// `rereadThreshold`, or a word of a line of text of several words under `lineRereadBelow`.
    public func wouldReread(_ recognition: Recognition, hint: CharacterHint) -> Bool {
        recognition.lines.contains { line in
            line.confidence < rereadThreshold(hint: hint, words: line.words.count)
                || (hint == .text && line.words.count > 1 && line.words.contains { $0.confidence < lineRereadBelow })
        }
    }

    /// Options with the documented defaults, each overridable.
    public init(
        render: RenderVariant = RenderVariant(),
        bestRenders: [RenderVariant] = [RenderVariant(), .bodyZones, .upright, .thinPenZones],
        rereadRenders: [RenderVariant] = [.upright, .thinPenZones],
        consensusConfidenceWeight: Double = 0.5,
        textRereadBelow: Double = 0.4,
        lineRereadBelow: Double = 0.5,
        numberRereadBelow: Double = 0.9,
        textLineMode: PageSegmentationMode = .rawLine,
        numericLineMode: PageSegmentationMode = .singleLine,
        textCorrectsSlant: Bool = false,
        numericCorrectsSlant: Bool = false,
        textWidthScale: Double = 1.25,
        longTextWidthScale: Double? = 1.4,
        numericWidthScale: Double = 1,
        singleGlyphMaxAspect: Double = 1.3,
        singleGlyphMaxStrokes: Int = 3,
        repairsStrokes: Bool = true,
        smoothsCoarseInk: Bool = true,
        squeezesTallMarks: Bool = true,
        cleansMarks: Bool = true,
        usesHintModels: Bool = true,
        vocabulary: VocabularyOptions = VocabularyOptions(),
        syllableBlocks: SyllableBlockPolicy = .koreanModels,
        blockMarginScale: Double = 1,
        blockInkScale: BlockInkScale = .model
    ) {
        self.syllableBlocks = syllableBlocks
        self.blockMarginScale = blockMarginScale
        self.blockInkScale = blockInkScale
        self.repairsStrokes = repairsStrokes
        self.smoothsCoarseInk = smoothsCoarseInk
        self.squeezesTallMarks = squeezesTallMarks
        self.cleansMarks = cleansMarks
        self.usesHintModels = usesHintModels
        self.render = render
        self.bestRenders = bestRenders.isEmpty ? [render] : bestRenders
        self.rereadRenders = rereadRenders
        self.consensusConfidenceWeight = consensusConfidenceWeight
        self.textRereadBelow = textRereadBelow
        self.lineRereadBelow = lineRereadBelow
        self.numberRereadBelow = numberRereadBelow
        self.textLineMode = textLineMode
        self.numericLineMode = numericLineMode
        self.textCorrectsSlant = textCorrectsSlant
        self.numericCorrectsSlant = numericCorrectsSlant
        self.textWidthScale = textWidthScale
        self.longTextWidthScale = longTextWidthScale
        self.numericWidthScale = numericWidthScale
        self.singleGlyphMaxAspect = singleGlyphMaxAspect
        self.singleGlyphMaxStrokes = singleGlyphMaxStrokes
        self.vocabulary = vocabulary
    }
}

/// Which models' ink is split into lines by blocks of strokes. Hangul writes each syllable as a
/// block with its final consonant under the rest; stroke by stroke, that consonant looks like
/// the start of a new line.
public enum SyllableBlockPolicy: String, Sendable, Hashable, CaseIterable {
    /// Models whose name starts with `kor` (`kor`, `kor_vert`, `kor-ink`); the rest stroke by stroke.
    case koreanModels = "korean"
    /// Every model.
    case all
    /// No model.
    case none

    /// Whether ink read by `model` (a model file's name, not an alias) is split by blocks.
    public func applies(to model: String) -> Bool {
        switch self {
        case .koreanModels: return model.hasPrefix("kor")
        case .all: return true
        case .none: return false
        }
    }
}

/// How high the image of ink split by syllable blocks is drawn, as a multiple of other lines'.
public enum BlockInkScale: Sendable, Hashable {
    /// As high as the model's network reads lines (`TessdataCatalog.networkInputHeights`) when
    /// that is higher than other lines' images, at most twice as high: a 48-pixel network gets
    /// its lines drawn 48 pixels high rather than drawn at 38 and scaled up by Tesseract, which
    /// blurs the few pixels of a final consonant. 1 for a model whose height is unknown.
    case model
    /// This many times as high, whatever the model (1 to 2).
    case fixed(Double)

    /// The scale for a network reading `inputHeight` pixels when other lines' images are
    /// `lineHeight` pixels high.
    public func scale(networkInputHeight inputHeight: Int?, lineHeight: Int) -> Double {
        switch self {
        case .fixed(let scale):
            return scale
        case .model:
            guard let inputHeight, lineHeight > 0 else { return 1 }
            return min(2, max(1, Double(inputHeight) / Double(lineHeight)))
        }
    }
}

/// When a recognised word may be replaced by a word of the client's vocabulary.
///
/// A plain nearest-word correction makes real text worse: any short word is close to some
/// vocabulary word. A replacement therefore needs evidence beyond string distance.
public struct VocabularyOptions: Sendable, Hashable {
    /// Largest edit distance allowed, as a fraction of the vocabulary word's length.
    public var maxRelativeDistance: Double
    /// A word Tesseract is less sure of than this (0...1) may be replaced on distance alone;
    /// a surer word only when the vocabulary word can be spelled from its per-symbol choices.
    public var lowConfidence: Double
    /// Words shorter than this many letters (a Hangul syllable counting as its jamo), and words
    /// of one character, are never replaced (too many near neighbours).
    public var minWordLength: Int

    /// Options with the documented defaults, each overridable.
    public init(maxRelativeDistance: Double = 0.34, lowConfidence: Double = 0.3, minWordLength: Int = 3) {
        self.maxRelativeDistance = maxRelativeDistance
        self.lowConfidence = lowConfidence
        self.minWordLength = minWordLength
    }
}
