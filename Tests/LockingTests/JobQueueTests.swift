import Foundation
import Locking
import Synchronization
import Testing

/// The one pool abstraction: a bounded job queue for named worker threads, drained or abandoned
/// on shutdown. Both the blocking pool and the OCR workers run on it.
@Suite struct JobQueueTests {
    @Test func refusesBeyondItsCapacityAndAfterClosing() throws {
        let queue = JobQueue<Int>(capacity: 2)
        try queue.push(1)
        try queue.push(2)
        #expect(throws: JobQueue<Int>.Refusal.full(waiting: 2)) { try queue.push(3) }
        #expect(queue.count == 2)
        #expect(queue.next() == 1)
        try queue.push(3)
        queue.close(.drain)
        #expect(throws: JobQueue<Int>.Refusal.closed) { try queue.push(4) }
        #expect(throws: JobQueue<Int>.Refusal.closed) { try queue.push(40, admitted: true) }
        // Draining: what was queued still comes out, in order, then nil.
        #expect(queue.next() == 2)
        #expect(queue.next() == 3)
        #expect(queue.next() == nil)
    }

    /// The rest of work already let in is queued beyond the capacity, ahead of what waits
    /// (whether or not a job was taken from the queue since it was last empty).
    @Test func admittedJobsGoFirstAndAreNotRefusedForRoom() throws {
        let queue = JobQueue<Int>(capacity: 2)
        try queue.push(1)
        try queue.push(2)
        try queue.push(10, admitted: true)
        #expect(queue.count == 3)
        #expect(queue.next() == 10)
        #expect(queue.next() == 1)
        try queue.push(3)
        try queue.push(11, admitted: true)
        #expect(throws: JobQueue<Int>.Refusal.full(waiting: 3)) { try queue.push(4) }
        #expect(queue.next() == 11)
        #expect(queue.next() == 2)
        #expect(queue.next() == 3)
        #expect(queue.count == 0)
    }

    @Test func abandonHandsBackWhatNeverRan() throws {
        let queue = JobQueue<Int>(capacity: 8)
        for i in 0..<5 { try queue.push(i) }
        #expect(queue.next() == 0)
        #expect(queue.close(.abandon) == [1, 2, 3, 4])
        #expect(queue.next() == nil)
    }

    /// A job an idle worker takes at once does not count against the capacity (capacity 0:
    /// only as many jobs as idle workers).
    @Test func idleWorkersMakeRoom() throws {
        let queue = JobQueue<Int>(capacity: 0)
        #expect(throws: JobQueue<Int>.Refusal.full(waiting: 0)) { try queue.push(1) }
        let taken = Atomic<Int>(0)
        let worker = try JoinableThread(name: "test-worker") {
            while let job = queue.next() { taken.add(job, ordering: .relaxed) }
        }
        let deadline = Date().addingTimeInterval(10)
        while queue.idleWorkers == 0 && Date() < deadline { usleep(1000) }
        try queue.push(5)
        queue.close(.drain)
        worker.join()
        #expect(taken.load(ordering: .relaxed) == 5)
    }

    /// Many producers and workers: every accepted job runs exactly once, refused ones never, and
    /// closing wakes every sleeping worker. It counts under `Lock`, as the product locks, so that
    /// ThreadSanitizer sees the ordering (`scripts/sanitize.sh thread`).
    @Test func everyAcceptedJobRunsOnce() throws {
        let queue = JobQueue<Int>(capacity: 64)
        let ran = Lock<[Int: Int]>([:])
        let accepted = Lock<[Int]>([])
        let workers = try (0..<4).map { index in
            try JoinableThread(name: "test-worker-\(index)") {
                while let job = queue.next() { ran.withLock { $0[job, default: 0] += 1 } }
            }
        }
        let finished = runOnThreads(4) { producer in
            for i in 0..<2_000 {
                let job = producer * 10_000 + i
                if (try? queue.push(job)) != nil { accepted.withLock { $0.append(job) } } else { usleep(50) }
            }
        }
        #expect(finished)
        queue.close(.drain)
        for worker in workers { worker.join() }
        let counts = ran.withLock { $0 }
        let jobs = accepted.withLock { $0 }
        #expect(!jobs.isEmpty)
        #expect(counts.count == jobs.count)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(Set(counts.keys) == Set(jobs))
    }
}
