import Dispatch
import Glibc
import Testing
@testable import InkStickerApp

/// Found by the AddressSanitizer run (scripts/sanitize.sh): jobs that had run stayed in the
/// pool's queue until it was compacted, keeping everything they captured alive, including the
/// service's object graph, which holds the pool itself: a stopped service was never freed.
@Suite struct WorkPoolTests {
    private final class Payload: Sendable {}

    @Test func aJobIsReleasedOnceItHasRun() throws {
        let pool = WorkPool(threads: 1, capacity: 8, name: "work-pool-test")
        defer { pool.shutdown() }
        let ran = DispatchSemaphore(value: 0)
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            let accepted = pool.submit {
                withExtendedLifetime(payload) {}
                ran.signal()
            }
            #expect(accepted)
        }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        // The worker drops its own reference when the job returns, just after the signal.
        let deadline = DispatchTime.now() + 5
        while released != nil, DispatchTime.now() < deadline { usleep(1_000) }
        #expect(released == nil, "the pool still holds a job that has run")
    }

    /// A full queue refuses at once; shutdown runs what was queued, then refuses new work.
    @Test func refusesWhenFullAndDrainsOnShutdown() {
        let pool = WorkPool(threads: 1, capacity: 2, name: "work-pool-test")
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let ran = Counter()
        #expect(pool.submit { started.signal(); release.wait(); ran.increment() })
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(pool.submit { ran.increment() })
        #expect(pool.submit { ran.increment() })
        #expect(!pool.submit { ran.increment() }, "a third queued job is over the capacity of 2")
        #expect(pool.queueDepth == 2)
        release.signal()
        pool.shutdown()
        #expect(ran.value == 3)
        #expect(!pool.submit { ran.increment() })
    }

    private final class Counter: @unchecked Sendable {
        private var count = 0
        private let lock = DispatchSemaphore(value: 1)
        func increment() { lock.wait(); count += 1; lock.signal() }
        var value: Int { lock.wait(); defer { lock.signal() }; return count }
    }
}
