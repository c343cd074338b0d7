import Locking
import Testing

@Suite struct LockTests {
    /// Unprotected, `value += 1` from several threads loses updates; under the lock none may be lost.
    @Test func incrementsFromManyThreadsAreNeverLost() {
        let threads = 8
        let increments = 20_000
        let counter = Lock(0)
        let finished = runOnThreads(threads) { _ in
            for _ in 0..<increments {
                counter.withLock { value in
                    // Read, then write back: a second thread inside the lock at once would lose a step.
                    let seen = value
                    value = seen + 1
                }
            }
        }
        #expect(finished)
        #expect(counter.withLock { $0 } == threads * increments)
    }

    /// No two bodies overlap: each marks itself inside and checks nobody else is.
    @Test func bodiesNeverOverlap() {
        struct State {
            var inside = false
            var overlaps = 0
            var entries = 0
        }
        let state = Lock(State())
        let finished = runOnThreads(4) { _ in
            for _ in 0..<5_000 {
                state.withLock { s in
                    if s.inside { s.overlaps += 1 }
                    s.inside = true
                    s.entries += 1
                    // Give a would-be intruder a window while the flag is up.
                    for _ in 0..<10 { s.entries &+= 0 }
                    s.inside = false
                }
            }
        }
        #expect(finished)
        let (overlaps, entries) = state.withLock { ($0.overlaps, $0.entries) }
        #expect(overlaps == 0)
        #expect(entries == 4 * 5_000)
    }

    private struct Refused: Error, Equatable { let count: Int }

    /// A typed error from the body reaches the caller unchanged, mutations made before it stay,
    /// and the lock is free again afterwards (a second `withLock` would otherwise deadlock).
    @Test func aThrowingBodyRethrowsItsTypedErrorAndReleasesTheLock() {
        let list = Lock<[Int]>([])
        #expect(throws: Refused(count: 1)) {
            try list.withLock { (values) throws(Refused) in
                values.append(7)
                throw Refused(count: values.count)
            }
        }
        let finished = runOnThreads(1, within: 5) { _ in list.withLock { $0.append(8) } }
        #expect(finished)
        #expect(list.withLock { $0 } == [7, 8])
    }

    @Test func returnsWhatTheBodyReturns() {
        let words = Lock(["ink", "sticker"])
        let joined = words.withLock { $0.joined(separator: "-") }
        #expect(joined == "ink-sticker")
    }
}
