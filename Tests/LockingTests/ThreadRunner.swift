import Dispatch
import Foundation

/// Runs `body(index)` on `count` fresh threads that start together, and waits for all of them.
///
/// Real threads rather than tasks: the cooperative pool may have as few threads as cores, and the
/// point of these tests is many threads contending at once. Returns false if they did not all
/// finish within `seconds` (a deadlock or a lost wake-up).
func runOnThreads(_ count: Int, within seconds: Double = 30, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            finished.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    return finished.wait(timeout: .now() + seconds) == .success
}
