/// A bounded first-in-first-out queue of jobs for a fixed set of worker threads: the one pool
/// abstraction of the service (the blocking pool for SQLite and the OCR workers both use it).
///
/// - `push` never blocks: it refuses when the queue is full (so callers answer 503 at once
///   instead of letting latency grow) or closed. An `admitted` job, the rest of work already let
///   in, is never refused for room and goes ahead of the jobs waiting.
/// - `next` blocks a worker until a job arrives; it returns nil once the queue is closed and,
///   for `close(.drain)`, emptied.
/// - `close(.drain)` lets the workers run what is queued; `close(.abandon)` hands the queued
///   jobs back so their owners can be told they never ran.
/// Workers sleep on a condition variable while the queue is empty.
public final class JobQueue<Job: Sendable>: @unchecked Sendable {
    public enum Refusal: Error, Equatable {
        /// `waiting` jobs are queued and there is no room for another.
        case full(waiting: Int)
        case closed
    }

    public enum Closing: Sendable { case drain, abandon }

    /// Jobs waiting beyond those an idle worker is about to take.
    public let capacity: Int
    // Guarded by `lock`.
    private let lock = ConditionLock()
    private var jobs: [Job?] = []
    private var head = 0
    private var closed = false
    private var idle = 0

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Jobs queued and not yet taken.
    public var count: Int { lock.withLock { jobs.count - head } }
    /// Workers waiting in `next()`.
    public var idleWorkers: Int { lock.withLock { idle } }
    public var isClosed: Bool { lock.withLock { closed } }

    /// Queues a job. A job an idle worker takes at once does not count against the capacity. An
    /// `admitted` one (the rest of work already let in, which had a place: each caller pushes it
    /// at most once for work it was let in with) is not refused for room and goes first, so that
    /// work started ends before work not started.
    public func push(_ job: Job, admitted: Bool = false) throws(Refusal) {
        try lock.withLock { () throws(Refusal) in
            guard !closed else { throw .closed }
            let waiting = jobs.count - head
            guard admitted || waiting < capacity + idle else { throw .full(waiting: waiting) }
            if !admitted {
                jobs.append(job)
            } else if head > 0 {
                head -= 1
                jobs[head] = job
            } else {
                jobs.insert(job, at: 0)
            }
            lock.signal()
        }
    }

    /// The next job, waiting while there is none; nil once the queue is closed (and drained).
    public func next() -> Job? {
        lock.withLock { () -> Job? in
            while head == jobs.count {
                if closed { return nil }
                idle += 1
                lock.wait()
                idle -= 1
            }
            let job = jobs[head]
            // Drop the queue's reference now: a job that has run must not keep what it captured alive.
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: jobs.count <= 1024)
                head = 0
            } else if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// Stops admission and wakes every worker. Returns the jobs that will never run (none for `.drain`).
    @discardableResult
    public func close(_ closing: Closing) -> [Job] {
        lock.withLock {
            closed = true
            var abandoned: [Job] = []
            if closing == .abandon {
                abandoned = jobs[head...].compactMap { $0 }
                jobs.removeAll()
                head = 0
            }
            lock.broadcast()
            return abandoned
        }
    }
}
