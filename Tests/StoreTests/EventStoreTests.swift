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
