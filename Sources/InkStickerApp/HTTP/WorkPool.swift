import Foundation
import Locking

/// A fixed set of threads for blocking work (SQLite), behind a bounded queue.
///
/// Handlers never block an event loop: they submit here. When the queue is full, `submit` refuses at
/// once so the caller can answer 503 with `Retry-After` instead of letting latency grow without bound.
/// Idle threads sleep on the lock's condition variable until a job or the shutdown arrives.
final class WorkPool: @unchecked Sendable {
    // The queue and flags are touched only inside `lock.withLock`.
    private let lock = ConditionLock()
    private var queue: [@Sendable () -> Void] = []
    private var head = 0
    private var stopped = false
    private let capacity: Int
    let threadCount: Int
    private let finished = DispatchGroup()

    init(threads: Int, capacity: Int, name: String) {
        self.capacity = capacity
        self.threadCount = max(1, threads)
        for index in 0..<threadCount {
            finished.enter()
            let thread = Thread { [self] in
                self.run()
                self.finished.leave()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Queued jobs not yet started.
    var queueDepth: Int { lock.withLock { queue.count - head } }

    /// Queues a job; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard !stopped, queue.count - head < capacity else { return false }
            queue.append(job)
            lock.signal()
            return true
        }
    }

    /// Runs the queued jobs, then stops the threads and waits for them.
    func shutdown() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
        finished.wait()
    }

    /// The next job, waiting while the queue is empty; nil once the pool is stopped and drained.
    private func next() -> (@Sendable () -> Void)? {
        lock.withLock { () -> (@Sendable () -> Void)? in
            while head >= queue.count {
                if stopped { return nil }
                lock.wait()
            }
            let job = queue[head]
            // Drop the queue's reference now: a job that has run must not keep what it captured
            // (request bodies, responders, the services, and through them this pool) alive.
            queue[head] = {}
            head += 1
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    private func run() {
        while let job = next() {
            job()
        }
    }
}
