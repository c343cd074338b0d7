import Glibc

/// Keeps Tesseract's OpenMP from spawning threads of its own.
///
/// Debian builds libtesseract with OpenMP. Each recognition then fans out over every core,
/// which for one short line costs far more in synchronisation than it saves (measured: a one-word
/// line takes several times longer) and fights the worker pool for the same cores. libgomp reads
/// `OMP_THREAD_LIMIT` once, when it is loaded, before `main` runs, so `setenv` in a running
/// process is too late: the process has to start with the variable set. `reexecIfNeeded` makes
/// sure of that by re-executing the binary with the variable added.
public enum OpenMPGuard {
    public static let variable = "OMP_THREAD_LIMIT"
    /// The executable as the kernel knows it, independent of `argv[0]` and `PATH`.
    public static let executablePath = "/proc/self/exe"

    /// What `reexecIfNeeded` does for a given environment.
    public enum Decision: Sendable, Hashable {
        /// The variable is set (to this value) and libgomp already honoured it: nothing to do.
        case keep(String)
        /// The variable is missing: set it to 1 and re-execute.
        case reexec
    }

    /// Pure decision logic: any value the operator chose (even one other than 1) is respected,
    /// only an absent or empty variable leads to a re-exec. Setting the variable before the exec
    /// also guarantees the re-executed process keeps it and never loops.
    public static func decision(environmentValue: String?) -> Decision {
        if let value = environmentValue, !value.isEmpty { return .keep(value) }
        return .reexec
    }

    /// Call first thing in `main`, before any thread starts. If `OMP_THREAD_LIMIT` is absent it
    /// sets it to 1 and replaces the process with a fresh copy of itself (same arguments); the
    /// call then never returns. If the exec fails the error is written to stderr and the process
    /// carries on, slower.
    public static func reexecIfNeeded(arguments: [String] = CommandLine.arguments) {
        guard decision(environmentValue: currentValue) == .reexec else { return }
        setenv(variable, "1", 1)
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        // exec discards stdio buffers: anything already printed would be lost.
        fflush(nil)
        execv(executablePath, &cArguments)
        // Only reached when exec failed.
        let message = "warning: could not re-execute with \(variable)=1 (errno \(errno)); "
            + "Tesseract will use OpenMP threads and run slower\n"
        _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    /// The variable as this process sees it.
    public static var currentValue: String? {
        getenv(variable).map { String(cString: $0) }
    }

    /// Whether the process started with a thread limit of 1, so libgomp spawns no threads.
    public static var isSingleThreaded: Bool { currentValue == "1" }

    /// Threads in this process now (entries of `/proc/self/task`): with the guard in place it
    /// does not grow after a recognition; without it libgomp adds a thread per core.
    public static func processThreadCount() -> Int? {
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }
}
