import Dispatch
import Ink
import Locking

/// The recognition pipeline: ink → lines → images → Tesseract on the worker pool → text with boxes
/// in board coordinates. All of it runs on an OCR worker thread.
///
/// Per line: one rendering (or, for `quality: best`, each of `options.bestRenders`, keeping the
/// most confident reading), Tesseract in single-line mode (single-character mode for a lone
/// glyph), the soft character hint, then the client vocabulary where the evidence supports it.
public final class InkRecognizer: InkRecognizing {
    /// The workers recognition runs on.
    public let pool: OCRWorkerPool
    /// Line segmentation and normalisation settings (everything but the rendering variant).
    public let imager: LineImager
    /// The pipeline's knobs.
    public let options: RecognitionOptions
    /// The Latin and the Korean language `auto` reads with; nil when either is not installed.
    public let automaticLanguages: (latin: String, korean: String)?

    /// A recognizer on `pool`; the defaults are what the service runs with.
    public init(pool: OCRWorkerPool, imager: LineImager = LineImager(), options: RecognitionOptions = RecognitionOptions(),
                automaticLanguages: (latin: String, korean: String) = ("eng", "kor")) {
        self.pool = pool
        self.imager = imager
        self.options = options
        let installed = { (name: String) in (try? pool.configuration.catalog.model(for: name)) != nil }
        self.automaticLanguages = installed(automaticLanguages.latin) && installed(automaticLanguages.korean) ? automaticLanguages : nil
    }

    /// Installed languages, and `auto` when both automatic languages are.
    public var languages: [String] { automaticLanguages == nil ? pool.languages : (pool.languages + [AutoLanguage.name]).sorted() }
    /// Request names read by another model (name → model).
    public var languageAliases: [String: String] { pool.languageAliases }
    /// Models read by another model under a hint (model → hint → model), when `options` uses them.
    public var hintModels: [String: [String: String]] {
        options.usesHintModels ? pool.configuration.catalog.hintModels : [:]
    }

    public var hasCapacity: Bool { pool.queueDepth < pool.configuration.queueDepth }
    public var isReady: Bool { pool.isReady }
    public var metrics: OCRPoolMetrics { pool.metrics }
    public func shutdown() { pool.shutdown() }

    /// The images a `fast` recognition with `hint` in `language` hands to Tesseract for these
    /// strokes, top to bottom: the same imaging (`RecognitionImaging`: stroke repair,
    /// single-glyph rule, lines, the hint's slant setting) the pipeline runs before it reads them.
    public func lineImages(for strokes: [Stroke], hint: CharacterHint = .text, language: String? = nil) -> [GrayImage] {
        let language = language == AutoLanguage.name ? automaticLanguages?.latin : language
        let model = language.flatMap { try? self.model(for: $0, hint: hint).name }
        let imaging = RecognitionImaging(imager: imager(for: model), options: options)
        let ink = imaging.prepare(strokes, hint: hint)
        return ink.lines.lines.indices.flatMap { imaging.render(ink, line: $0, variant: options.render).map(\.image) }
    }

    /// Queues the request. The deadline counts from this call, so time spent waiting for a
    /// worker is part of it.
    public func recognize(_ request: RecognitionRequest, deadlineMilliseconds: Int,
                          completion: @escaping @Sendable (Result<Recognition, OCRError>) -> Void) throws(OCRError) {
        guard request.language == AutoLanguage.name else {
            try recognize(request, deadline: RecognitionDeadline(milliseconds: deadlineMilliseconds), completion: completion)
            return
        }
        // Both jobs may end before this call returns; an answer made on this thread then (in
        // `arm`) is handed on, so that the completion never runs on the caller's thread.
        let calling = Lock(true)
        let completion: @Sendable (Result<Recognition, OCRError>) -> Void = { result in
            if calling.withLock({ $0 }) { DispatchQueue.global().async { completion(result) } } else { completion(result) }
        }
        defer { calling.withLock { $0 = false } }
        guard let automaticLanguages else { throw .unknownLanguage(request.language, installed: languages) }
        // Both jobs or neither: a lone queued job would only spend a worker on a refused request.
        guard pool.queueDepth + 2 <= pool.configuration.queueDepth else { throw .overloaded(retryAfterSeconds: 1) }
        let deadline = RecognitionDeadline(milliseconds: deadlineMilliseconds)
        let pair = [automaticLanguages.latin, automaticLanguages.korean]
        // Under `quality: auto`, both read once (the other script's model is unsure of everything,
        // and would read it again in more renderings); the chosen one reads again as it would alone,
        // only when its reading is unsure, starting from the lines as its first job read them. The
        // Korean job reads an unsure reading of Hangul again at once, while the Latin model reads
        // (the Korean one is faster on Hangul, and such a reading is mostly the one chosen).
        let rereads = request.quality == .auto
        let hint = request.charset ?? .text
        var firstRead = request
        if rereads { firstRead.firstReadings = FirstReadings() }
        let shared = firstRead
        let options = options
        let segmentation = imager.options.segmentation
        // Each job first works out the density if no job has yet, and reads nothing once the
        // request is answered (the other reading settled it) or abandoned; the Latin one, on ink
        // as dense as most Hangul, waits for the Korean model's first reading (`AutoLanguageJoin`).
        @Sendable func start(_ strokes: [Stroke], join: AutoLanguageJoin, latin: Bool) -> AutoJobStart {
            guard !join.isDone else { return .skip }
            if !join.knowsDensity { join.know(density: AutoLanguage.density(strokes, segmentation: segmentation), strokes: strokes) }
            guard !join.isDone else { return .skip }   // knowing it may have let the other reading answer
            return !latin || join.latinReadsNow() ? .read : .putOff
        }
        // One job per language; the Korean one reads an unsure reading of Hangul again at once
        // (unless the Latin reading has settled it meanwhile).
        @Sendable func submit(_ index: Int, join: AutoLanguageJoin, admitted: Bool) throws(OCRError) {
            var one = shared
            one.language = pair[index]
            if rereads { one.quality = .fast }
            try recognize(one, deadline: deadline, admitted: admitted, marksDictionaryWords: index == 0,
                          start: { start($0, join: join, latin: index == 0) },
                          read: { if index == 1 { join.koreanRead($0) } },
                          readAgainAt: index == 1 && rereads ? .auto : nil, when: { reading in
                !join.isDone && AutoLanguage.isMostlyHangul(reading.text) && options.wouldReread(reading, hint: hint)
            }) { result in
                if case .success(nil) = result { return }   // put off: queued again when needed
                join.deliver(index, result.map { $0! })
            }
        }
        let join = AutoLanguageJoin(readLatinLater: { join in
            do throws(OCRError) { try submit(0, join: join, admitted: true) } catch { join.deliver(0, AutoLanguageJoin.Outcome.failure(error)) }
        }) { [self, request = shared] decided in
            if case .success(let choice) = decided, let split = choice.split {
                // The Korean model reads the strokes its line finder joined to sure Latin lines
                // alone (a request of its own: no first readings, whose lines are the whole ink's).
                var rest = RecognitionRequest(strokes: split.strokes.map { request.strokes[$0] }, language: pair[1],
                                              charset: request.charset, words: request.words, quality: request.quality)
                rest.firstReadings = nil
                do {
                    try recognize(rest, deadline: deadline) { result in
                        guard case .success(let korean) = result else { return completion(.success(choice.reading)) }
                        completion(.success(split.answer(korean: korean, before: choice.reading.timings)))
                    }
                } catch {
                    completion(.success(choice.reading))
                }
                return
            }
            guard case .success(let choice) = decided, rereads, !choice.readAgain,
                  options.wouldReread(choice.reading, hint: hint) else {
                completion(decided.map(\.reading))
                return
            }
            let reading = choice.reading
            var again = request
            again.language = pair[choice.index]
            do {
                try recognize(again, deadline: deadline) { result in
                    guard case .success(var reread) = result else { return completion(.success(reading)) }
                    reread.timings = reread.timings + reading.timings
                    completion(.success(reread))
                }
            } catch {
                completion(.success(reading))   // no room to read it again: the first reading stands
            }
        }
        for index in pair.indices {
            do throws(OCRError) {
                try submit(index, join: join, admitted: false)
            } catch {
                join.abandon()   // a job queued and not yet started reads nothing, and nobody is told
                throw error
            }
        }
        join.arm()
    }

    private func recognize(_ request: RecognitionRequest, deadline: RecognitionDeadline,
                           completion: @escaping @Sendable (Result<Recognition, OCRError>) -> Void) throws(OCRError) {
        let (request, pipeline) = try prepare(request)
        try pool.submit({ [request] context throws(OCRError) in
            try pipeline.run(request, context: context, deadline: deadline)
        }, completion: completion)
    }

    /// One job that runs `start` on the request's strokes (`.skip`: it reads nothing and returns
    /// an empty reading; `.putOff`: it returns nil), reads `request` (marking the words its model's
    /// word list has, given `marksDictionaryWords`), tells `read` the reading, then, when `when`
    /// holds for it, reads it again at `quality` (a bonus: a failure leaves the first reading
    /// alone; nil: never).
    private func recognize(_ request: RecognitionRequest, deadline: RecognitionDeadline, admitted: Bool,
                           marksDictionaryWords: Bool = false,
                           start: @escaping @Sendable ([Stroke]) -> AutoJobStart, read: @escaping @Sendable (Recognition) -> Void,
                           readAgainAt quality: RecognitionRequest.Quality?, when: @escaping @Sendable (Recognition) -> Bool,
                           completion: @escaping @Sendable (Result<AutoReading?, OCRError>) -> Void) throws(OCRError) {
        let (request, pipeline) = try prepare(request)
        try pool.submit(admitted: admitted, { [request] context throws(OCRError) in
            // A job that reads nothing is counted as skipped (the density it may have worked out,
            // a small part of a reading's time, is then left out of the workers' busy time).
            switch start(request.strokes) {
            case .skip:
                context.didNoWork()
                return AutoReading(first: .empty)
            case .putOff:
                context.didNoWork()
                return nil
            case .read: break
            }
            var reading = try pipeline.run(request, context: context, deadline: deadline)
            // With the handle the reading was just made with (a reading without words asks nothing).
            if marksDictionaryWords, reading.lines.contains(where: { !$0.words.isEmpty }),
               let handle = try? context.handle(forModel: request.language) {
                AutoLanguage.markDictionaryWords(&reading, isWord: handle.isDictionaryWord)
            }
            read(reading)
            guard let quality, when(reading) else { return AutoReading(first: reading) }
            var again = request
            again.quality = quality
            return AutoReading(first: reading, again: try? pipeline.run(again, context: context, deadline: deadline), triedAgain: true)
        }, completion: completion)
    }

    /// The request renamed to the model file that reads it (no alias renames it again), and the
    /// pipeline for that model.
    private func prepare(_ request: RecognitionRequest) throws(OCRError) -> (RecognitionRequest, RecognitionPipeline) {
        let model = try self.model(for: request.language, hint: request.charset ?? .text)
        var request = request
        request.language = model.name
        return (request, RecognitionPipeline(imager: imager(for: model.name), options: options))
    }
}

extension InkRecognizer {
    /// The model that reads `language` under `hint`: its hint model when the options use them.
    func model(for language: String, hint: CharacterHint) throws(OCRError) -> (name: String, directory: String) {
        try pool.configuration.catalog.model(for: language, hint: options.usesHintModels ? hint : .text)
    }

    /// The imager for ink read by `model`: split into lines by syllable blocks when the
    /// options' `syllableBlocks` policy says so for that model, with their margin and height
    /// (for `.model`, from the height the model's network reads).
    func imager(for model: String?) -> LineImager {
        var imager = self.imager
        imager.options.segmentation.groupsSyllableBlocks = model.map(options.syllableBlocks.applies) ?? false
        imager.blockMarginScale = options.blockMarginScale
        let inputHeight = model.flatMap { pool.configuration.catalog.networkInputHeights[$0] }
        let lineHeight = self.imager.renderOptions(for: options.render).imageHeight
        imager.blockInkScale = options.blockInkScale.scale(networkInputHeight: inputHeight, lineHeight: lineHeight)
        imager.lineInkScale = BlockInkScale.model.scale(networkInputHeight: inputHeight, lineHeight: lineHeight)
        return imager
    }
}

/// What an `auto` job does when a worker takes it.
enum AutoJobStart: Sendable {
    /// Read the ink.
    case read
    /// Nothing: the request is answered or abandoned.
    case skip
    /// Not yet: queued again when its reading is needed (`AutoLanguageJoin.latinReadsNow`).
    case putOff
}

/// A point in time a recognition must finish by.
struct RecognitionDeadline: Sendable {
    let milliseconds: Int
    let start: ContinuousClock.Instant

    init(milliseconds: Int, start: ContinuousClock.Instant = ContinuousClock.now) {
        self.milliseconds = max(milliseconds, 1)
        self.start = start
    }

    /// Milliseconds left; throws once none are.
    func remaining() throws(OCRError) -> Int {
        let left = milliseconds - Int((ContinuousClock.now - start).milliseconds)
        guard left > 0 else { throw .deadlineExceeded(milliseconds: milliseconds) }
        return left
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
