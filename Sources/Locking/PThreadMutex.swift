import Glibc

/// Owns one heap-allocated `pthread_mutex_t`, the primitive under ``Lock`` and ``ConditionLock``.
///
/// POSIX forbids moving an initialised mutex, so it lives at a fixed heap address while this
/// owner (a noncopyable value, itself free to move) decides when it is destroyed.
struct PThreadMutex: ~Copyable {
    /// The mutex's fixed address; `pthread_cond_wait` needs it too.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(pointer, nil)
        assert(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    func lock() {
        let status = pthread_mutex_lock(pointer)
        assert(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    func unlock() {
        let status = pthread_mutex_unlock(pointer)
        assert(status == 0, "pthread_mutex_unlock failed: \(status)")
    }
}
