import Synchronization

/// A snapshot of the worker pool's state and counters, for metrics and health checks.
public struct OCRPoolMetrics: Sendable, Hashable {
    public var workerCount: Int
    /// Jobs waiting for a worker now.
    public var queueDepth: Int
    /// Workers running a job now.
    public var busyWorkers: Int
    /// Jobs that ran, did their work and returned a value.
    public var jobsSucceeded: Int
    /// Jobs that ran and found nothing to do (`WorkerContext.didNoWork()`: an `auto` job whose
    /// reading was no longer needed or is put off). Not in the mean job time behind `Retry-After`.
    public var jobsSkipped: Int
    /// Jobs that ran and threw (including deadline misses).
    public var jobsFailed: Int
    /// `submit` calls refused with `.overloaded`.
    public var jobsRejected: Int
    /// Queued jobs completed with `.shuttingDown` instead of running.
    public var jobsCancelled: Int
    /// Recognitions abandoned at their deadline.
    public var deadlineExceeded: Int
    /// Recognitions run through `WorkerContext.recognize`.
    public var recognitions: Int
    /// Time spent inside Tesseract by those recognitions, summed over workers.
    public var recognitionTime: Duration
    /// Time workers spent running jobs, summed over workers (skipped jobs left out: `jobsSkipped`).
    public var busyTime: Duration

    /// All zero: no workers, nothing run.
    public static let idle = OCRPoolMetrics(workerCount: 0, queueDepth: 0, busyWorkers: 0, jobsSucceeded: 0, jobsSkipped: 0, jobsFailed: 0,
                                            jobsRejected: 0, jobsCancelled: 0, deadlineExceeded: 0, recognitions: 0,
                                            recognitionTime: .zero, busyTime: .zero)
}

/// The pool's counters, updated lock-free from worker threads.
final class PoolCounters: Sendable {
    let busyWorkers = Atomic<Int>(0)
    let jobsSucceeded = Atomic<Int>(0)
    let jobsSkipped = Atomic<Int>(0)
    let jobsFailed = Atomic<Int>(0)
    let jobsRejected = Atomic<Int>(0)
    let jobsCancelled = Atomic<Int>(0)
    let deadlineExceeded = Atomic<Int>(0)
    let recognitions = Atomic<Int>(0)
    let recognitionNanoseconds = Atomic<Int>(0)
    let busyNanoseconds = Atomic<Int>(0)

    func snapshot(workerCount: Int, queueDepth: Int) -> OCRPoolMetrics {
        OCRPoolMetrics(
            workerCount: workerCount,
            queueDepth: queueDepth,
            busyWorkers: busyWorkers.load(ordering: .relaxed),
            jobsSucceeded: jobsSucceeded.load(ordering: .relaxed),
            jobsSkipped: jobsSkipped.load(ordering: .relaxed),
            jobsFailed: jobsFailed.load(ordering: .relaxed),
            jobsRejected: jobsRejected.load(ordering: .relaxed),
            jobsCancelled: jobsCancelled.load(ordering: .relaxed),
            deadlineExceeded: deadlineExceeded.load(ordering: .relaxed),
            recognitions: recognitions.load(ordering: .relaxed),
            recognitionTime: .nanoseconds(recognitionNanoseconds.load(ordering: .relaxed)),
            busyTime: .nanoseconds(busyNanoseconds.load(ordering: .relaxed)))
    }
}

extension Duration {
    /// Whole nanoseconds, saturating (a Duration holds far more than `Int` nanoseconds).
    var nanoseconds: Int {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int.max : scaled &+ Int(attoseconds / 1_000_000_000)
    }
}
