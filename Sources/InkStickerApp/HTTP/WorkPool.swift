import Locking

/// A fixed set of threads for blocking work (SQLite), behind a bounded `JobQueue`.
///
/// Handlers never block an event loop: they submit here. When the queue is full, `submit` refuses at
/// once so the caller can answer 503 with `Retry-After` instead of letting latency grow without bound.
/// Shutdown runs what is queued, then joins the threads.
final class WorkPool: Sendable {
    private let queue: JobQueue<@Sendable () -> Void>
    private let threads: [JoinableThread]
    let threadCount: Int

    init(threads: Int, capacity: Int, name: String) {
        let queue = JobQueue<@Sendable () -> Void>(capacity: capacity)
        self.queue = queue
        self.threadCount = max(1, threads)
        self.threads = (0..<threadCount).map { index in
            do {
                return try JoinableThread(name: "\(name)-\(index)") {
                    while let job = queue.next() { job() }
                }
            } catch {
                preconditionFailure("cannot start thread \(name)-\(index): \(error)")
            }
        }
    }

    /// Queued jobs not yet started.
    var queueDepth: Int { queue.count }

    /// Queues a job; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        do {
            try queue.push(job)
            return true
        } catch {
            return false
        }
    }

    /// Runs the queued jobs, then stops the threads and waits for them.
    func shutdown() {
        queue.close(.drain)
        for thread in threads { thread.join() }
    }
}
