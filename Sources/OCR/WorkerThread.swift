import Glibc
import Locking

/// One worker: a dedicated pthread that owns a `WorkerContext` for its whole life.
///
/// Plain pthreads rather than Swift concurrency: a recognition blocks its thread for
/// milliseconds in C code, which must not happen on the cooperative pool, and Tesseract
/// handles must stay on one thread.
enum WorkerThread {
    /// Starts worker `index` on its own named thread.
    static func start(index: Int, core: PoolCore) -> Result<JoinableThread, OCRError> {
        do {
            return .success(try JoinableThread(name: "ocr-worker-\(index)", stackBytes: core.configuration.workerStackBytes) {
                WorkerThread.main(index: index, core: core)
            })
        } catch {
            switch error {
            case .failed(let code): return .failure(.threadStartFailed(errno: code))
            }
        }
    }

    private static func main(index: Int, core: PoolCore) {
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
