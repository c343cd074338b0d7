import Glibc
import Locking

/// A job as the workers see it: run it, or tell its owner why it never ran.
struct PendingJob: Sendable {
    let run: @Sendable (WorkerContext) -> Void
    let cancel: @Sendable (OCRError) -> Void
}

/// The state shared by the pool and its worker threads: start-up reports under `lock`, the jobs
/// in a bounded `JobQueue` (waiting jobs beyond those idle workers take at once: `queueDepth`).
final class PoolCore: @unchecked Sendable {
    enum State {
        case starting
        case running
        case shuttingDown
    }

    let configuration: OCRConfiguration
    let counters = PoolCounters()
    let jobs: JobQueue<PendingJob>
    private let lock = ConditionLock()

    // Guarded by `lock`.
    private var state = State.starting
    /// Start-up outcome per worker (`nil` until the worker reports).
    private var startup: [Result<Void, OCRError>?]

    init(configuration: OCRConfiguration) {
        self.configuration = configuration
        jobs = JobQueue(capacity: configuration.queueDepth)
        startup = Array(repeating: nil, count: configuration.workerCount)
    }

    var queuedCount: Int { jobs.count }
    var isRunning: Bool { lock.withLock { state == .running } }

    // MARK: Start-up

    /// Called by each worker once its default handle exists (or failed to).
    func reportStartup(worker: Int, _ result: Result<Void, OCRError>) {
        lock.withLock {
            startup[worker] = result
            lock.broadcast()
        }
    }

    /// Blocks until `count` workers have reported; returns the first failure, if any.
    func awaitStartup(count: Int) -> OCRError? {
        lock.withLock {
            while startup.prefix(count).contains(where: { $0 == nil }) { lock.wait() }
            for case .failure(let error)? in startup.prefix(count) { return error }
            state = .running
            return nil
        }
    }

    // MARK: Queue

    /// Queues a job if a worker is idle or the queue has room (or it is `admitted`: see `JobQueue.push`).
    func enqueue(_ job: PendingJob, admitted: Bool = false) throws(OCRError) {
        guard isRunning else { throw .shuttingDown }
        do {
            try jobs.push(job, admitted: admitted)
        } catch {
            switch error {
            case .closed:
                throw .shuttingDown
            case .full(let waiting):
                counters.jobsRejected.add(1, ordering: .relaxed)
                throw .overloaded(retryAfterSeconds: retryAfterSeconds(waiting: waiting))
            }
        }
    }

    /// Blocks until a job is available; `nil` once the pool shuts down.
    func next() -> PendingJob? { jobs.next() }

    /// Stops accepting work and returns the jobs that never started; `nil` if already stopping.
    func beginShutdown() -> [PendingJob]? {
        let first = lock.withLock { () -> Bool in
            guard state != .shuttingDown else { return false }
            state = .shuttingDown
            return true
        }
        return first ? jobs.close(.abandon) : nil
    }

    /// A client should come back once the queue ahead of it has drained: queued jobs times the
    /// mean job time, spread over the workers, rounded up to whole seconds (HTTP `Retry-After`).
    private func retryAfterSeconds(waiting: Int) -> Int {
        let finished = counters.jobsSucceeded.load(ordering: .relaxed) + counters.jobsFailed.load(ordering: .relaxed)
        let busy = counters.busyNanoseconds.load(ordering: .relaxed)
        let meanJob = finished > 0 ? Double(busy) / Double(finished) / 1e9 : 0.01
        let drain = Double(waiting + 1) * meanJob / Double(configuration.workerCount)
        return max(Int(drain.rounded(.up)), 1)
    }
}
