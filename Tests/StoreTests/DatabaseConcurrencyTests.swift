import Dispatch
import Foundation
import Locking
import Testing
@testable import Store

@Suite struct DatabaseConcurrencyTests {
    /// In WAL mode a reader proceeds while the writer holds an open transaction, and sees the
    /// snapshot from before that transaction.
    @Test func readerProceedsDuringAnOpenWriteAndSeesTheOldSnapshot() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { try $0.insertBoard(makeBoard("before")) }

        let seen = Lock<[String?]>([])
        try database.write { transaction in
            try transaction.insertBoard(makeBoard("during"))
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let titles = try? database.read { transaction in
                    [try transaction.board(id: "before")?.id, try transaction.board(id: "during")?.id]
                }
                seen.withLock { $0 = titles ?? ["read failed"] }
                done.signal()
            }
            // The write transaction is still open here; a blocked reader would time out.
            #expect(done.wait(timeout: .now() + 5) == .success)
        }
        #expect(seen.withLock { $0 } == ["before", nil])
        #expect(try database.read { try $0.board(id: "during")?.id } == "during")
    }

    /// Both pooled readers are in use at the same time: each waits for the other inside its body.
    @Test func readersRunInParallel() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.readerCount = 2
        let database = try openDatabase(directory, configuration: configuration)
        defer { try? database.close() }
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let results = Lock<[Bool]>([])
        let group = DispatchGroup()
        for (mine, theirs) in [(first, second), (second, first)] {
            DispatchQueue.global().async(group: group) {
                let met = try? database.read { _ -> Bool in
                    mine.signal()
                    return theirs.wait(timeout: .now() + 5) == .success
                }
                results.withLock { $0.append(met ?? false) }
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(results.withLock { $0 } == [true, true])
    }

    @Test func exhaustedPoolTimesOutWithATypedError() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.readerCount = 1
        configuration.poolSize = 1  // PostgreSQL: reads and writes share one pool
        configuration.readerWaitMilliseconds = 50
        let database = try openDatabase(directory, configuration: configuration)
        defer { try? database.close() }
        #expect(throws: StoreError.readerUnavailable(waitedMilliseconds: 50)) {
            try database.read { _ in try database.read { _ in } }
        }
    }

    /// Writers commit pairs of stickers while readers read: every snapshot holds an even,
    /// never-decreasing count, and two queries in one read transaction agree.
    @Test func concurrentReadersSeeOnlyCommittedConsistentSnapshots() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { try $0.insertBoard(makeBoard()) }

        let rounds = 100
        let problems = Lock<[String]>([])
        let readsDone = Lock(0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for round in 0..<rounds {
                do {
                    try database.write { transaction in
                        try transaction.insertSticker(makeSticker("a\(round)"))
                        try transaction.insertSticker(makeSticker("b\(round)"))
                    }
                } catch {
                    problems.withLock { $0.append("write \(round): \(error)") }
                }
            }
        }
        for reader in 0..<2 {
            DispatchQueue.global().async(group: group) {
                var last = 0
                while last < rounds * 2 {
                    do {
                        let (counted, listed) = try database.read { transaction in
                            (try transaction.stickerCounts(boardId: "board-1").total,
                             try transaction.listStickers(boardId: "board-1", limit: 1_000).stickers.count)
                        }
                        if counted % 2 != 0 || counted < last || counted != listed {
                            problems.withLock { $0.append("reader \(reader): \(counted) vs \(listed) after \(last)") }
                            return
                        }
                        last = counted
                        readsDone.withLock { $0 += 1 }
                    } catch {
                        problems.withLock { $0.append("reader \(reader): \(error)") }
                        return
                    }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(problems.withLock { $0 } == [])
        #expect(readsDone.withLock { $0 } >= 2)
    }

    @Test func closeWaitsForRunningReadsAndThenRefusesNewOnes() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        let inRead = DispatchSemaphore(value: 0)
        let finished = Lock(false)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            _ = try? database.read { _ in
                inRead.signal()
                Thread.sleep(forTimeInterval: 0.2)
                finished.withLock { $0 = true }
            }
        }
        #expect(inRead.wait(timeout: .now() + 5) == .success)
        try database.close()
        // close() returned only after the running read let go of its connection.
        #expect(finished.withLock { $0 })
        #expect(throws: StoreError.closed) { try database.read { _ in } }
        _ = group.wait(timeout: .now() + 5)
    }
}
