import Glibc

/// One worker: a dedicated pthread that owns a `WorkerContext` for its whole life.
///
/// Plain pthreads rather than Swift concurrency: a recognition blocks its thread for
/// milliseconds in C code, which must not happen on the cooperative pool, and Tesseract
/// handles must stay on one thread.
enum WorkerThread {
    /// Starts worker `index`; returns its thread or the `pthread_create` error.
    static func start(index: Int, core: PoolCore) -> Result<pthread_t, OCRError> {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, core.configuration.workerStackBytes)

        let start = Unmanaged.passRetained(Start(index: index, core: core)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            WorkerThread.main(index: start.index, core: start.core)
            return nil
        }, start)
        guard code == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            return .failure(.threadStartFailed(errno: code))
        }
        return .success(thread)
    }

    private final class Start {
        let index: Int
        let core: PoolCore
        init(index: Int, core: PoolCore) {
            self.index = index
            self.core = core
        }
    }

    private static func main(index: Int, core: PoolCore) {
        nameCurrentThread("ocr-worker-\(index)")
        if core.configuration.pinWorkersToCores {
            pinToCore(index % OCRConfiguration.activeProcessorCount)
        }
        // The handles are created, used and ended on this thread only.
        let context: WorkerContext
        do {
            context = try WorkerContext(workerIndex: index, configuration: core.configuration,
                                        counters: core.counters)
        } catch {
            core.reportStartup(worker: index, .failure(error))
            return
        }
        core.reportStartup(worker: index, .success(()))
        while let job = core.next() {
            core.counters.busyWorkers.add(1, ordering: .relaxed)
            job.run(context)
            core.counters.busyWorkers.subtract(1, ordering: .relaxed)
        }
    }

    /// Names the thread for `top -H`, `gdb` and `/proc` (`pthread_setname_np` does not import).
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // The kernel keeps 15 bytes.
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Restricts the calling thread to one CPU. Failure (a CPU outside the allowed set) is
    /// harmless: the thread keeps running unpinned.
    private static func pinToCore(_ cpu: Int) {
        var set = cpu_set_t()
        let bitsPerByte = 8
        withUnsafeMutableBytes(of: &set) { bytes in
            guard cpu / bitsPerByte < bytes.count else { return }
            bytes[cpu / bitsPerByte] |= UInt8(1) << UInt8(cpu % bitsPerByte)
        }
        // Glibc's Swift module does not import sched_setaffinity (it is _GNU_SOURCE-only).
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        guard let symbol = dlsym(nil, "sched_setaffinity") else { return }
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        _ = withUnsafeBytes(of: &set) { bytes in
            bytes.baseAddress.map { setAffinity(0, bytes.count, $0) }
        }
    }
}
