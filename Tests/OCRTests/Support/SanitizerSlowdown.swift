import Glibc

/// How many times slower than a plain debug build this test process runs, for the few tests that
/// bound how long something takes.
///
/// A sanitizer instruments every memory access of our own code: ThreadSanitizer's documented
/// slowdown is 5–15×; AddressSanitizer's is about 2× for C, far more for Swift with stack-use-after-return detection (below). A bound sized for a plain build then fails for
/// that reason alone, while the behaviour it guards (a deadline honoured, a client not starved)
/// is still checked with the bound scaled. The runtimes are found by their entry symbols, which
/// the instrumented test binary exports, so this holds however the tests were started.
enum SanitizerSlowdown {
    /// 1 in a plain build.
    static let factor: Double = {
        if dlsym(nil, "__tsan_init") != nil { return 8 }
        // AddressSanitizer runs here with stack-use-after-return detection (scripts/sanitize.sh),
        // which gives every Swift call frame a heap-backed fake stack: measured on this suite,
        // the 30 ms deadline test returns after 0.06 s in a plain build and 1.2–1.3 s under it.
        if dlsym(nil, "__asan_init") != nil { return 5 }
        return 1
    }()
}
