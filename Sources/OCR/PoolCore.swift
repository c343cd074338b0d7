import Glibc
import Locking

/// A job as the workers see it: run it, or tell its owner why it never ran.
struct PendingJob: Sendable {
    let run: @Sendable (WorkerContext) -> Void
    let cancel: @Sendable (OCRError) -> Void
}

/// The state shared by the pool and its worker threads. Everything mutable is guarded by `lock`.
final class PoolCore: @unchecked Sendable {
    enum State {
        case starting
        case running
        case shuttingDown
    }

    let configuration: OCRConfiguration
    let counters = PoolCounters()
    let lock = ConditionLock()

    // Guarded by `lock`.
    private var state = State.starting
    private var queue: [PendingJob] = []
    private var queueHead = 0
    /// Workers blocked in `next()`, ready to take a job at once.
    private var idleWorkers = 0
    /// Start-up outcome per worker (`nil` until the worker reports).
    private var startup: [Result<Void, OCRError>?]

    init(configuration: OCRConfiguration) {
        self.configuration = configuration
        startup = Array(repeating: nil, count: configuration.workerCount)
    }

    var queuedCount: Int { lock.withLock { queue.count - queueHead } }
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

    /// Queues a job if a worker is idle or the queue has room.
    func enqueue(_ job: PendingJob) throws(OCRError) {
        try lock.withLock { () throws(OCRError) in
            guard state == .running else { throw .shuttingDown }
            let waiting = queue.count - queueHead
            // Jobs that an idle worker is about to take do not count against the depth.
            guard waiting < configuration.queueDepth + idleWorkers else {
                counters.jobsRejected.add(1, ordering: .relaxed)
                throw .overloaded(retryAfterSeconds: retryAfterSeconds(waiting: waiting))
            }
            queue.append(job)
            lock.signal()
        }
    }

    /// Blocks until a job is available; `nil` once the pool shuts down.
    func next() -> PendingJob? {
        lock.withLock {
            while queue.count == queueHead && state != .shuttingDown {
                idleWorkers += 1
                lock.wait()
                idleWorkers -= 1
            }
            guard state != .shuttingDown, queueHead < queue.count else { return nil }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return job
        }
    }

    /// Stops accepting work and returns the jobs that never started; `nil` if already stopping.
    func beginShutdown() -> [PendingJob]? {
        lock.withLock {
            guard state != .shuttingDown else { return nil }
            state = .shuttingDown
            let abandoned = Array(queue[queueHead...])
            queue.removeAll()
            queueHead = 0
            lock.broadcast()
            return abandoned
        }
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
