import Foundation

/// Every limit and default of the OCR module, in one place.
public struct OCRConfiguration: Sendable, Hashable {
    /// Worker threads, each with its own Tesseract handles. Default: the active processor count
    /// (Tesseract is CPU-bound and runs single-threaded under `OMP_THREAD_LIMIT=1`).
    public var workerCount: Int
    /// Jobs waiting for a worker before `submit` throws `.overloaded`. Default: 8 per worker.
    ///
    /// A one-line job takes 3–15 ms, so a full queue drains within roughly 25–120 ms: long
    /// enough to absorb a burst of multi-line requests, short enough that a waiting request
    /// still feels interactive. Beyond that, telling the client to retry is better than letting
    /// latency grow without bound.
    public var queueDepth: Int
    /// The language every worker loads at start-up.
    public var defaultLanguage: String
    /// Handles for other languages, created on first use and kept per worker, least recently
    /// used evicted first. Each costs 12–22 MB and ~100 ms to create. Default: 2.
    public var cachedLanguagesPerWorker: Int
    /// Where models are found.
    public var catalog: TessdataCatalog
    /// Variables applied to every handle.
    public var settings: TesseractSettings
    /// Deadline for one recognition when the caller gives none, in milliseconds. Tesseract
    /// checks it before each text line (the LSTM reads a whole line in one go), so a recognition
    /// can overrun it by up to one line's time: `maximumImageWidth` bounds that.
    public var defaultDeadlineMilliseconds: Int
    /// Widest image accepted for recognition, in pixels. LSTM time grows linearly with width
    /// (measured ~1.9 ms per 100 px for a 52 px-high line: 42 ms for 2256 px), so 8000 px
    /// bounds the overrun of a deadline by one line to roughly 150–200 ms.
    public var maximumImageWidth: Int
    /// Tallest image accepted, in pixels (several lines in block mode).
    public var maximumImageHeight: Int
    /// Pin worker `i` to CPU `i mod cores`. Off by default: on the 2-core reference machine,
    /// shared with other processes, pinning gave no consistent gain (2 workers, 2000 one-word
    /// jobs: 478–584 jobs/s pinned vs 481–585 unpinned) and hurts when another process holds
    /// the pinned core, since the worker can no longer move. What does matter is the allocator:
    /// Tesseract allocates heavily, and glibc's per-thread arenas keep workers independent;
    /// with `MALLOC_ARENA_MAX=1` two workers reached only 1.1–1.2× one worker instead of ~1.96×.
    /// Do not set `MALLOC_ARENA_MAX` below `workerCount + 1`.
    public var pinWorkersToCores: Bool
    /// Stack size of each worker thread; Tesseract's layout analysis recurses.
    public var workerStackBytes: Int

    public init(
        workerCount: Int? = nil,
        queueDepth: Int? = nil,
        defaultLanguage: String = "eng",
        cachedLanguagesPerWorker: Int = 2,
        catalog: TessdataCatalog = TessdataCatalog(),
        settings: TesseractSettings = TesseractSettings(),
        defaultDeadlineMilliseconds: Int = 2_000,
        maximumImageWidth: Int = 8_000,
        maximumImageHeight: Int = 2_000,
        pinWorkersToCores: Bool = false,
        workerStackBytes: Int = 8 << 20
    ) {
        let workers = max(workerCount ?? Self.activeProcessorCount, 1)
        self.workerCount = workers
        self.queueDepth = max(queueDepth ?? 8 * workers, 0)
        self.defaultLanguage = defaultLanguage
        self.cachedLanguagesPerWorker = max(cachedLanguagesPerWorker, 0)
        self.catalog = catalog
        self.settings = settings
        self.defaultDeadlineMilliseconds = max(defaultDeadlineMilliseconds, 1)
        self.maximumImageWidth = min(max(maximumImageWidth, 1), TesseractHandle.maximumImageSide)
        self.maximumImageHeight = min(max(maximumImageHeight, 1), TesseractHandle.maximumImageSide)
        self.pinWorkersToCores = pinWorkersToCores
        self.workerStackBytes = max(workerStackBytes, 1 << 20)
    }

    /// Processors this process may use (Foundation honours the CPU affinity mask and cgroup
    /// quotas).
    public static var activeProcessorCount: Int {
        max(ProcessInfo.processInfo.activeProcessorCount, 1)
    }
}
