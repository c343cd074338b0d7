/// A value that threads share, reachable only while holding a pthread mutex.
///
/// The service locks with pthreads rather than `Synchronization.Mutex` so that ThreadSanitizer
/// can check it: on Linux, `Mutex` parks and wakes threads through atomics and futex calls inside
/// the uninstrumented standard library, so TSan sees no ordering between two critical sections of
/// one `Mutex` and reports accesses inside `withLock` as races. TSan intercepts
/// `pthread_mutex_lock` and `pthread_mutex_unlock`, so with this lock a reported race is a real one.
///
/// The API mirrors `Mutex`: the value goes in as `sending` and is only reachable inside
/// ``withLock(_:)`` as `inout sending`, so a non-`Sendable` value (a C handle, say) cannot leak
/// out to another thread. That region discipline is what makes the unconditional
/// `@unchecked Sendable` sound, exactly as it does for `Mutex`. The lock is not recursive:
/// calling `withLock` again from inside its body deadlocks.
public final class Lock<Value>: @unchecked Sendable {
    private let mutex = PThreadMutex()
    /// Read and written only between `mutex.lock()` and `mutex.unlock()`.
    private var value: Value

    /// Creates a lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        value = initialValue
    }

    /// Runs `body` with the lock held and exclusive access to the value; returns what it returns.
    ///
    /// The lock is released when `body` returns or throws. Keep `body` short and never block in it
    /// on anything that may need this lock.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}
