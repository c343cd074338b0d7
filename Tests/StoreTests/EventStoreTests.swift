import Dispatch
import Foundation
import Locking
import Testing
@testable import Store

@Suite struct EventStoreTests {
    private let directory: TemporaryDirectory
    private let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        database = try openDatabase(directory, boards: ["b1", "b2"])
    }

    @Test func appendAndReadInPages() throws {
        let appended = try database.write { transaction in
            [
                try transaction.appendEvent(boardId: "b1", stickerId: "s1", type: .created, version: 1,
                                            payload: #"{"id":"s1"}"#, createdAt: 10),
                try transaction.appendEvent(boardId: "b2", stickerId: "x", type: .created, version: 1,
                                            payload: "{}", createdAt: 11),
                try transaction.appendEvent(boardId: "b1", stickerId: "s1", type: .committed, version: 2,
                                            payload: "{}", createdAt: 12),
                try transaction.appendEvent(boardId: "b1", stickerId: nil, type: .cleared, version: nil,
                                            payload: #"{"count":1}"#, createdAt: 13),
            ]
        }
        #expect(appended.map(\.id) == appended.map(\.id).sorted())
        let b1 = appended.filter { $0.boardId == "b1" }
        #expect(try database.read { try $0.events(boardId: "b1", limit: 10) } == b1)
        #expect(try database.read { try $0.events(boardId: "b1", afterId: b1[0].id, limit: 1) } == [b1[1]])
        #expect(try database.read { try $0.latestEventId(boardId: "b1") } == b1[2].id)
        #expect(try database.read { try $0.latestEventId(boardId: "nobody") } == 0)
    }

    @Test func eventsOutliveTheirStickerButAreAppendOnly() throws {
        try database.write { transaction in
            try transaction.insertSticker(makeSticker("s1", board: "b1"))
            try transaction.appendEvent(boardId: "b1", stickerId: "s1", type: .created, version: 1,
                                        payload: "{}", createdAt: 1)
            try transaction.deleteSticker(id: "s1", boardId: "b1")
            try transaction.appendEvent(boardId: "b1", stickerId: "s1", type: .deleted, version: 1,
                                        payload: "{}", createdAt: 2)
        }
        #expect(try database.read { try $0.events(boardId: "b1", limit: 10) }.map(\.type) == [.created, .deleted])

        for sql in ["UPDATE events SET payload = 'x'", "DELETE FROM events"] {
            let error = try #require(throws: (any Error).self) {
                try database.write { transaction in _ = try transaction.query(sql) }
            }
            #expect(StoreConstraint(error) == .trigger, "\(sql)")
        }
    }

    @Test func retentionDeletesOldEventsAndEachBoardRecordsTheNewestItLost() throws {
        let appended = try database.write { tx in
            try [(board: "b1", at: Int64(10)), ("b1", 11), ("b2", 12), ("b1", 100)].map { board, at in
                try tx.appendEvent(boardId: board, stickerId: "s", type: .updated, version: 1, payload: "{}", createdAt: at)
            }
        }
        let latest = try database.read { tx in try ["b1", "b2"].map { try tx.latestEventId(boardId: $0) } }

        var purged: [String: Int] = [:]
        while let pass = try database.write({ try $0.purgeEvents(createdBefore: 50, limit: 1_000) }) {
            purged[pass.boardId, default: 0] += pass.count
        }
        #expect(purged == ["b1": 2, "b2": 1])
        #expect(try database.read { try $0.events(boardId: "b1", limit: 10) } == [appended[3]])
        #expect(try database.read { try $0.events(boardId: "b2", limit: 10) } == [])
        let boards = try database.read { tx in try ["b1", "b2"].map { try #require(try tx.board(id: $0)) } }
        #expect(boards.map(\.eventsPurgedThrough) == [appended[1].id, appended[2].id])
        // A board's latest event id does not go back, even with every event gone.
        #expect(try database.read { tx in try ["b1", "b2"].map { try tx.latestEventId(boardId: $0) } } == latest)
        #expect(try database.read { tx in try ["b1", "b2"].map { try tx.boardAndLatestEvent(id: $0)?.latestEventId } } == latest)
        let next = try database.write {
            try $0.appendEvent(boardId: "b2", stickerId: "s", type: .deleted, version: 2, payload: "{}", createdAt: 200)
        }
        #expect(next.id > appended[3].id)
        #expect(try database.read { try $0.latestEventId(boardId: "b2") } == next.id)
        #expect(try database.read { try $0.boardAndLatestEvent(id: "b2") }?.latestEventId == next.id)
        #expect(try database.read { try $0.boardAndLatestEvent(id: "b2") }?.board == boards[1])
        #expect(try database.read { try $0.boardAndLatestEvent(id: "nobody") } == nil)
    }

    @Test func retentionGoesABatchAtATimeFromTheOldEnd() throws {
        let appended = try database.write { tx in
            try (0..<5).map { try tx.appendEvent(boardId: "b1", stickerId: "s", type: .updated, version: Int64($0 + 1),
                                                 payload: "{}", createdAt: Int64($0)) }
        }
        let first = try database.write { try $0.purgeEvents(createdBefore: 4, limit: 3) }
        #expect(first?.count == 3)
        #expect(try database.read { try $0.board(id: "b1") }?.eventsPurgedThrough == appended[2].id)
        #expect(try database.write { try $0.purgeEvents(createdBefore: 4, limit: 3) }?.count == 1)
        #expect(try database.write { try $0.purgeEvents(createdBefore: 4, limit: 3) } == nil)
        #expect(try database.read { try $0.events(boardId: "b1", limit: 10) } == [appended[4]])
    }

    @Test func onlyRetentionDeletesAndOnlyFromTheOldEnd() throws {
        let appended = try database.write { tx in
            try (0..<3).map { try tx.appendEvent(boardId: "b1", stickerId: "s", type: .updated, version: Int64($0 + 1),
                                                 payload: "{}", createdAt: Int64($0)) }
        }
        _ = try database.write { try $0.purgeEvents(createdBefore: 1, limit: 10) }
        let attempts = [
            // past the recorded mark
            "DELETE FROM events WHERE id = \(appended[2].id)",
            // the mark moved back, which would hide what was deleted
            "UPDATE boards SET events_purged_through = 0 WHERE id = 'b1'",
            // the mark past every event of the board, which would hide the events still to come
            "UPDATE boards SET events_purged_through = \(appended[2].id + 1) WHERE id = 'b1'",
        ]
        for sql in attempts {
            let error = try #require(throws: (any Error).self) {
                try database.write { transaction in _ = try transaction.query(sql) }
            }
            #expect(StoreConstraint(error) == .trigger, "\(sql)")
        }
        #expect(try database.read { try $0.events(boardId: "b1", limit: 10) } == Array(appended[1...]))
        // Deleting the board still takes every event with it.
        try database.write { _ = try $0.deleteBoard(id: "b1") }
        #expect(try database.read { try $0.query("SELECT count(*) FROM events WHERE board_id = 'b1'") } == [[.text("0")]])
    }

    /// Two "nodes" (connections of their own) deleting a board's events while a third appends and
    /// a reader follows as the event streams do: every read either returns every event appended
    /// after its cursor up to the last one it returns, or its board row says that some are gone.
    @Test func retentionRacingAppendsAndAnotherNodeNeverHidesAnEvent() throws {
        let database = self.database
        let nodes = try (0..<2).map { _ in try openDatabase(directory) }
        defer { for node in nodes { try? node.close() } }
        struct Read { var cursor: Int64; var mark: Int64; var ids: [Int64] }
        let appended = Lock<[Int64]>([])
        let reads = Lock<[Read]>([])
        let done = Lock(false)
        let failures = Lock<[String]>([])
        let group = DispatchGroup()
        // Threads of their own: the global queue may run fewer blocks at once than these four.
        func run(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            Thread { body(); group.leave() }.start()
        }
        run {
            for version in 1...300 {
                do {
                    let event = try database.write {
                        try $0.appendEvent(boardId: "b1", stickerId: "s", type: .updated, version: Int64(version), payload: "{}", createdAt: 1)
                    }
                    appended.withLock { $0.append(event.id) }
                } catch {
                    failures.withLock { $0.append("append: \(error)") }
                }
                usleep(300)
            }
            done.withLock { $0 = true }
        }
        for node in nodes {
            run {
                while !done.withLock({ $0 }) {
                    do {
                        _ = try node.write { try $0.purgeEvents(createdBefore: 2, limit: 7) }
                    } catch {
                        failures.withLock { $0.append("purge: \(error)") }
                    }
                }
            }
        }
        run {
            var cursor: Int64 = 0
            while !done.withLock({ $0 }) {
                let read: Read
                do {
                    read = try database.read { tx in
                        let mark = try #require(try tx.board(id: "b1")).eventsPurgedThrough
                        return Read(cursor: cursor, mark: mark,
                                    ids: try tx.events(boardId: "b1", afterId: max(cursor, mark), limit: 3).map(\.id))
                    }
                } catch {
                    failures.withLock { $0.append("read: \(error)") }
                    continue
                }
                reads.withLock { $0.append(read) }
                cursor = read.ids.last ?? max(cursor, read.mark)
                usleep(2_000)  // a slow client: the deleting nodes overtake it
            }
        }
        group.wait()
        let all = appended.withLock { $0 }
        let seen = reads.withLock { $0 }
        #expect(failures.withLock { $0 } == [])
        #expect(all.count == 300)
        #expect(seen.contains { $0.mark > $0.cursor }, "no read ever found events deleted behind it")
        for read in seen {
            guard let last = read.ids.last else { continue }
            let from = max(read.cursor, read.mark)
            #expect(read.ids == all.filter { $0 > from && $0 <= last }, "cursor \(read.cursor), mark \(read.mark)")
        }
        let board = try #require(try database.read { try $0.board(id: "b1") })
        #expect(board.eventsPurgedThrough <= all.max() ?? 0)
        #expect(try database.read { try $0.latestEventId(boardId: "b1") } == all.max())
    }

    @Test func stickerIdAndVersionMustMatchTheType() throws {
        for (stickerId, type, version) in [(nil, EventRecord.Kind.created, Int64(1)),
                                           ("s1", .cleared, nil), ("s1", .updated, nil)] {
            let error = try #require(throws: (any Error).self) {
                try database.write {
                    try $0.appendEvent(boardId: "b1", stickerId: stickerId, type: type, version: version,
                                       payload: "{}", createdAt: 1)
                }
            }
            #expect(StoreConstraint(error) == .check)
        }
        #expect(throws: StoreError.notFound(.board, id: "ghost")) {
            try database.write {
                try $0.appendEvent(boardId: "ghost", stickerId: "s", type: .created, version: 1,
                                   payload: "{}", createdAt: 1)
            }
        }
    }
}
