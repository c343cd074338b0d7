import Glibc

/// A named pthread running one closure, joined when its owner stops it.
///
/// Plain pthreads: event loops and workers block in system calls and C libraries for their whole
/// life, which must not happen on Swift's cooperative pool; Tesseract handles must stay on the
/// thread that made them.
public final class JoinableThread: Sendable {
    public enum StartError: Error, Equatable { case failed(errno: Int32) }

    private let handle: pthread_t

    /// Starts `body` on a new thread named `name` (the kernel keeps 15 bytes), with `stackBytes`
    /// of stack when given.
    public init(name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        final class Start: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            JoinableThread.nameCurrentThread(start.name)
            start.body()
            return nil
        }, start)
        guard code == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw .failed(errno: code)
        }
        handle = thread
    }

    /// Waits for the thread to end. Called from the thread itself (a job that dropped the last
    /// reference to its pool), it detaches instead: a thread cannot join itself.
    public func join() {
        if pthread_equal(handle, pthread_self()) != 0 {
            pthread_detach(handle)
        } else {
            pthread_join(handle, nil)
        }
    }

    /// Names the calling thread for `top -H`, `gdb` and `/proc` (`pthread_setname_np` does not import).
    static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
