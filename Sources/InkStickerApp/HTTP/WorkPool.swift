import Foundation
import Locking

/// A fixed set of threads for blocking work (SQLite), behind a bounded queue.
///
/// Handlers never block an event loop: they submit here. When the queue is full, `submit` refuses at
/// once so the caller can answer 503 with `Retry-After` instead of letting latency grow without bound.
final class WorkPool: Sendable {
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var stopped = false
        var busy = 0
    }

    private let state = Lock(State())
    private let condition = NSCondition()
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
    var queueDepth: Int { state.withLock { $0.queue.count - $0.head } }

    /// Queues a job; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { s -> Bool in
            guard !s.stopped, s.queue.count - s.head < capacity else { return false }
            s.queue.append(job)
            return true
        }
        if accepted {
            condition.lock()
            condition.signal()
            condition.unlock()
        }
        return accepted
    }

    /// Runs the queued jobs, then stops the threads and waits for them.
    func shutdown() {
        state.withLock { $0.stopped = true }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func next() -> (@Sendable () -> Void)? {
        state.withLock { s -> (@Sendable () -> Void)? in
            guard s.head < s.queue.count else { return nil }
            let job = s.queue[s.head]
            // Drop the queue's reference now: a job that has run must not keep what it captured
            // (request bodies, responders, the services, and through them this pool) alive.
            s.queue[s.head] = {}
            s.head += 1
            if s.head > 64 && s.head * 2 > s.queue.count {
                s.queue.removeFirst(s.head)
                s.head = 0
            }
            return job
        }
    }

    private func run() {
        while true {
            if let job = next() {
                job()
                continue
            }
            condition.lock()
            let stop = state.withLock { $0.stopped && $0.head >= $0.queue.count }
            if stop {
                condition.unlock()
                return
            }
            if state.withLock({ $0.head >= $0.queue.count }) {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.5))
            }
            condition.unlock()
        }
    }
}
