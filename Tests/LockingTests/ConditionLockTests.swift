import Glibc
import Locking
import Testing

/// A queue guarded by a `ConditionLock`, shaped like the OCR worker pool's.
private final class Channel: @unchecked Sendable {
    let lock = ConditionLock()
    // Guarded by `lock`.
    private var items: [Int] = []
    private var closed = false
    private var sleepers = 0

    /// Threads blocked in `receive()`. Counted under the lock, which `wait()` releases only once
    /// the thread is asleep, so a count seen here means those threads really are waiting.
    var sleeping: Int { lock.withLock { sleepers } }

    func send(_ item: Int) {
        lock.withLock {
            items.append(item)
            lock.signal()
        }
    }

    func close() {
        lock.withLock {
            closed = true
            lock.broadcast()
        }
    }

    /// Blocks until an item is available; nil once closed and drained.
    func receive() -> Int? {
        lock.withLock {
            while items.isEmpty && !closed {
                sleepers += 1
                lock.wait()
                sleepers -= 1
            }
            return items.isEmpty ? nil : items.removeFirst()
        }
    }
}

@Suite struct ConditionLockTests {
    /// Consumers sleep in `wait()` until producers signal; every item arrives exactly once and a
    /// lost wake-up shows as consumers that never finish.
    @Test func consumersReceiveEveryItemExactlyOnce() {
        let channel = Channel()
        let producers = 3
        let perProducer = 2_000
        let received = Lock<[Int]>([])
        let consumers = 3
        let done = Lock(0)
        let finished = runOnThreads(producers + consumers) { index in
            if index < producers {
                for n in 0..<perProducer { channel.send(index * perProducer + n) }
                let last = done.withLock { count -> Bool in
                    count += 1
                    return count == producers
                }
                if last { channel.close() }
            } else {
                var mine: [Int] = []
                while let item = channel.receive() { mine.append(item) }
                received.withLock { $0.append(contentsOf: mine) }
            }
        }
        #expect(finished)
        #expect(received.withLock { $0.sorted() } == Array(0..<(producers * perProducer)))
    }

    /// `broadcast()` wakes every waiter, not just one: all of them are asleep before it is sent.
    @Test func broadcastWakesEveryWaiter() {
        let channel = Channel()
        let woken = Lock(0)
        let waiters = 4
        let finished = runOnThreads(waiters + 1, within: 10) { index in
            if index == waiters {
                while channel.sleeping < waiters { sched_yield() }
                channel.close()
            } else {
                if channel.receive() == nil { woken.withLock { $0 += 1 } }
            }
        }
        #expect(finished)
        #expect(woken.withLock { $0 } == waiters)
    }
}
