import Glibc
import Locking
import Synchronization

/// A fixed set of worker threads, each owning its own Tesseract handles, behind a bounded queue.
///
/// - Start-up: every worker loads the default language on its own thread; `init` waits for all
///   of them and throws the first failure (after stopping the workers that did start).
/// - Admission: `submit` never blocks. When every worker is busy and `queueDepth` jobs are
///   already waiting it throws `.overloaded(retryAfterSeconds:)`, unless the job is `admitted`
///   (the rest of a request already let in: queued ahead of the others).
/// - Shutdown: `shutdown()` stops admission, completes every queued job with `.shuttingDown`,
///   lets running jobs finish (their recognitions are bounded by their deadlines), joins the
///   threads and ends every handle on the thread that owned it.
public final class OCRWorkerPool: Sendable {
    public let configuration: OCRConfiguration
    let core: PoolCore
    private let threads: [JoinableThread]
    private let joined = Atomic<Bool>(false)

    /// Starts `configuration.workerCount` workers and waits until each has loaded the default
    /// language (about 100 ms, in parallel).
    public init(configuration: OCRConfiguration = OCRConfiguration()) throws(OCRError) {
        self.configuration = configuration
        let core = PoolCore(configuration: configuration)
        // Fail early, with the installed languages, rather than once per worker.
        _ = try configuration.catalog.model(for: configuration.defaultLanguage)
        var threads: [JoinableThread] = []
        var startError: OCRError?
        for index in 0..<configuration.workerCount {
            switch WorkerThread.start(index: index, core: core) {
            case .success(let thread): threads.append(thread)
            case .failure(let error): startError = error
            }
            if startError != nil { break }
        }
        let failure = core.awaitStartup(count: threads.count) ?? startError
        self.core = core
        self.threads = threads
        if let failure {
            shutdown()
            throw failure
        }
    }

    deinit {
        shutdown()
    }

    /// Queues a job for the next free worker.
    ///
    /// `work` runs on a worker thread with that worker's context; its result, or the reason it
    /// never ran (`.shuttingDown`), is passed to `completion` exactly once, on a worker thread
    /// or on the thread calling `shutdown()`. Keep `completion` short: the worker waits for it.
    ///
    /// - Throws: `.overloaded(retryAfterSeconds:)` when the queue is full (unless the job is
    ///   `admitted`: the rest of a request already let in, queued ahead of the jobs waiting),
    ///   `.shuttingDown` after shutdown began. `completion` is not called in these cases.
    public func submit<Output: Sendable>(
        admitted: Bool = false,
        _ work: @escaping @Sendable (WorkerContext) throws(OCRError) -> Output,
        completion: @escaping @Sendable (Result<Output, OCRError>) -> Void
    ) throws(OCRError) {
        let counters = core.counters
        let job = PendingJob(
            run: { context in
                let clock = ContinuousClock()
                let start = clock.now
                let result: Result<Output, OCRError>
                var skipped = false
                context.didNoWorkInJob = false
                do throws(OCRError) {
                    let output = try work(context)
                    // Only a job that returned can have done nothing (one that threw failed).
                    skipped = context.didNoWorkInJob
                    result = .success(output)
                    if skipped {
                        counters.jobsSkipped.add(1, ordering: .relaxed)
                    } else {
                        counters.jobsSucceeded.add(1, ordering: .relaxed)
                    }
                } catch {
                    result = .failure(error)
                    counters.jobsFailed.add(1, ordering: .relaxed)
                }
                // Counted before the completion runs, so whoever it wakes sees the job's time (a
                // job that did nothing has none: the mean job time is that of jobs that worked).
                if !skipped {
                    counters.busyNanoseconds.add((clock.now - start).nanoseconds, ordering: .relaxed)
                }
                completion(result)
            },
            cancel: { error in
                counters.jobsCancelled.add(1, ordering: .relaxed)
                completion(.failure(error))
            })
        try core.enqueue(job, admitted: admitted)
    }

    /// Stops the pool: queued jobs complete with `.shuttingDown`, running jobs finish, threads
    /// are joined and their handles ended. Idempotent; a second call returns at once.
    public func shutdown() {
        guard let abandoned = core.beginShutdown() else { return }
        for job in abandoned { job.cancel(.shuttingDown) }
        guard !joined.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // A job that drops the last reference to the pool runs this on its own worker: that
        // thread is detached rather than joined (JoinableThread.join) and ends once the job returns.
        for thread in threads { thread.join() }
    }

    // MARK: State for health checks and metrics

    /// True once every worker has started and until shutdown begins.
    public var isReady: Bool { core.isRunning }

    /// Jobs waiting for a worker.
    public var queueDepth: Int { core.queuedCount }

    /// Workers running a job now.
    public var busyWorkers: Int { core.counters.busyWorkers.load(ordering: .relaxed) }

    /// Counters since start-up.
    public var metrics: OCRPoolMetrics {
        core.counters.snapshot(workerCount: threads.count, queueDepth: core.queuedCount)
    }

    /// Installed languages (from the catalog snapshot).
    public var languages: [String] { configuration.catalog.languages }
    /// Request names read by another model (name → model), from the catalog snapshot.
    public var languageAliases: [String: String] { configuration.catalog.aliases }
}
