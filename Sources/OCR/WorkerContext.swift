import Ink

/// What a job sees while it runs on a worker thread: that worker's Tesseract handles.
///
/// A context belongs to one worker thread and must not leave it (it is not `Sendable`, so the
/// compiler refuses to let a job capture it into something that escapes).
public final class WorkerContext {
    /// 0-based index of the worker running the job.
    public let workerIndex: Int
    public let configuration: OCRConfiguration
    /// The handle for the model of `configuration.defaultLanguage`, created when the worker
    /// started. Handles are named after their model, so two aliases of one model share one.
    public let defaultHandle: TesseractHandle

    /// Whether the job running now said it found nothing to do (`didNoWork()`); reset by the
    /// pool before each job.
    var didNoWorkInJob = false

    /// The job running now found nothing to do (its reading is no longer needed, or put off) and
    /// read nothing: when it returns, the pool counts it as skipped, and its time not in the
    /// workers' busy time (so not in the mean job time behind `Retry-After`). A job that throws
    /// afterwards counts as failed, with its time.
    public func didNoWork() { didNoWorkInJob = true }

    /// Other languages, least recently used first.
    private var cachedHandles: [TesseractHandle] = []
    private let counters: PoolCounters

    init(workerIndex: Int, configuration: OCRConfiguration, counters: PoolCounters) throws(OCRError) {
        self.workerIndex = workerIndex
        self.configuration = configuration
        self.counters = counters
        let model = try configuration.catalog.model(for: configuration.defaultLanguage)
        defaultHandle = try TesseractHandle(tessdataPath: model.directory, language: model.name,
                                            settings: configuration.settings)
    }

    /// Models with a live handle on this worker, the default first.
    public var loadedLanguages: [String] {
        [defaultHandle.language] + cachedHandles.map(\.language)
    }

    /// The handle for `language` (the default language when `nil`), created on first use.
    ///
    /// At most `configuration.cachedLanguagesPerWorker` extra handles are kept; the least
    /// recently used one is ended when another language is needed.
    public func handle(for language: String? = nil) throws(OCRError) -> TesseractHandle {
        try handle(model: configuration.catalog.model(for: language ?? configuration.defaultLanguage))
    }

    /// The handle for the model file `name`, a name the catalog already resolved (no alias
    /// applies to it), created on first use as `handle(for:)`.
    public func handle(forModel name: String) throws(OCRError) -> TesseractHandle {
        try handle(model: configuration.catalog.model(named: name))
    }

    private func handle(model: (name: String, directory: String)) throws(OCRError) -> TesseractHandle {
        if model.name == defaultHandle.language { return defaultHandle }
        if let index = cachedHandles.firstIndex(where: { $0.language == model.name }) {
            let handle = cachedHandles.remove(at: index)
            cachedHandles.append(handle)
            return handle
        }
        let handle = try TesseractHandle(tessdataPath: model.directory, language: model.name,
                                         settings: configuration.settings)
        guard configuration.cachedLanguagesPerWorker > 0 else { return handle }
        if cachedHandles.count >= configuration.cachedLanguagesPerWorker {
            cachedHandles.removeFirst()
        }
        cachedHandles.append(handle)
        return handle
    }

    /// Recognises an image with this worker's handle for `language` and applies a character
    /// hint, counting the time and any deadline miss in the pool's metrics.
    ///
    /// - Parameters:
    ///   - deadline: milliseconds; `configuration.defaultDeadlineMilliseconds` when `nil`.
    ///   - alternatives: collect per-symbol alternatives; by default only when the hint needs
    ///     them (any hint but `.text`), since they cost ~15 % of recognition time.
    public func recognize(
        _ image: GrayImage,
        language: String? = nil,
        pageSegmentationMode: PageSegmentationMode = .singleLine,
        hint: CharacterHint = .text,
        deadline: Int? = nil,
        alternatives: Bool? = nil
    ) throws(OCRError) -> HintedPage {
        try recognize(image, with: handle(for: language), pageSegmentationMode: pageSegmentationMode, hint: hint,
                      deadline: deadline, alternatives: alternatives)
    }

    /// `recognize(_:language:...)` with the model file `model`, a name the catalog already
    /// resolved (`handle(forModel:)`).
    public func recognize(
        _ image: GrayImage,
        model: String,
        pageSegmentationMode: PageSegmentationMode,
        hint: CharacterHint,
        deadline: Int?,
        alternatives: Bool? = nil
    ) throws(OCRError) -> HintedPage {
        try recognize(image, with: handle(forModel: model), pageSegmentationMode: pageSegmentationMode, hint: hint,
                      deadline: deadline, alternatives: alternatives)
    }

    private func recognize(
        _ image: GrayImage,
        with handle: @autoclosure () throws(OCRError) -> TesseractHandle,
        pageSegmentationMode: PageSegmentationMode,
        hint: CharacterHint,
        deadline: Int?,
        alternatives: Bool?
    ) throws(OCRError) -> HintedPage {
        guard image.width <= configuration.maximumImageWidth,
              image.height <= configuration.maximumImageHeight
        else {
            throw .invalidImage(
                width: image.width, height: image.height,
                reason: "larger than \(configuration.maximumImageWidth)x\(configuration.maximumImageHeight)")
        }
        let handle = try handle()
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            counters.recognitions.add(1, ordering: .relaxed)
            counters.recognitionNanoseconds.add((clock.now - start).nanoseconds, ordering: .relaxed)
        }
        do {
            let page = try handle.recognize(
                image: image, pageSegmentationMode: pageSegmentationMode,
                deadline: deadline ?? configuration.defaultDeadlineMilliseconds,
                alternatives: alternatives ?? (hint != .text))
            return hint.apply(to: page)
        } catch .deadlineExceeded(let milliseconds) {
            counters.deadlineExceeded.add(1, ordering: .relaxed)
            throw .deadlineExceeded(milliseconds: milliseconds)
        }
    }
}

/// A context and its handles belong to one worker thread.
@available(*, unavailable)
extension WorkerContext: Sendable {}
