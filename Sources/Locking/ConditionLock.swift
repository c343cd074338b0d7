import Glibc

/// A pthread mutex with one condition variable, for queues whose consumers sleep while empty.
///
/// `Synchronization.Mutex` has no condition variable, and worker threads must sleep rather than
/// spin. Unlike ``Lock`` it guards no value of its own: the owner keeps its state in fields that it
/// touches only inside ``withLock(_:)``. Built on pthreads for the same reason as ``Lock``: so
/// ThreadSanitizer sees the ordering it provides. The condition variable lives at a fixed heap
/// address, like the mutex.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates an unlocked mutex and its condition variable.
    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let status = pthread_cond_init(condition, nil)
        assert(status == 0, "pthread_cond_init failed: \(status)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// Runs `body` with the mutex held; released when `body` returns or throws.
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    /// Releases the mutex, sleeps until signalled, and takes the mutex again before returning.
    ///
    /// Call only inside ``withLock(_:)``, and re-check the awaited condition in a loop afterwards:
    /// wake-ups may be spurious.
    public func wait() {
        pthread_cond_wait(condition, mutex.pointer)
    }

    /// Wakes one thread blocked in ``wait()``.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every thread blocked in ``wait()``.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
