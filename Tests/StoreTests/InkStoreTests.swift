import Testing
@testable import Store

@Suite struct InkStoreTests {
    @Test func inksKeepTheirOrderAndBytesAndFollowTheirSticker() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        let strokes: [[UInt8]] = [[0, 255, 7], [], Array(repeating: 42, count: 100_000)]
        try database.write { transaction in
            try transaction.insertBoard(makeBoard())
            try transaction.insertSticker(makeSticker("s1"))
            #expect(try transaction.nextInkSeq(stickerId: "s1") == 1)
            for bytes in strokes {
                let seq = try transaction.nextInkSeq(stickerId: "s1")
                try transaction.insertInk(InkRecord(id: "ink\(seq)", stickerId: "s1", boardId: "board-1",
                                                    seq: seq, strokes: bytes, createdAt: 100 + seq))
            }
        }
        let inks = try database.read { try $0.inks(stickerId: "s1") }
        #expect(inks.map(\.seq) == [1, 2, 3])
        #expect(inks.map(\.strokes) == strokes)
        #expect(inks.map(\.createdAt) == [101, 102, 103])

        try database.write { try $0.deleteSticker(id: "s1", boardId: "board-1") }
        #expect(try database.read { try $0.inks(stickerId: "s1") }.isEmpty)
    }

    @Test func inkMustPointAtAStickerOfItsBoard() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { transaction in
            try transaction.insertBoard(makeBoard("b1"))
            try transaction.insertBoard(makeBoard("b2"))
            try transaction.insertSticker(makeSticker("s1", board: "b1"))
            try transaction.insertInk(InkRecord(id: "i1", stickerId: "s1", boardId: "b1", seq: 1,
                                                strokes: [1], createdAt: 1))
        }
        // The sticker exists, but on another board.
        #expect(throws: StoreError.notFound(.sticker, id: "s1")) {
            try database.write {
                try $0.insertInk(InkRecord(id: "i2", stickerId: "s1", boardId: "b2", seq: 2, strokes: [1], createdAt: 1))
            }
        }
        #expect(throws: StoreError.alreadyExists(.ink, id: "i1")) {
            try database.write {
                try $0.insertInk(InkRecord(id: "i1", stickerId: "s1", boardId: "b1", seq: 2, strokes: [1], createdAt: 1))
            }
        }
        let duplicateSeq = try #require(throws: (any Error).self) {
            try database.write {
                try $0.insertInk(InkRecord(id: "i3", stickerId: "s1", boardId: "b1", seq: 1, strokes: [1], createdAt: 1))
            }
        }
        #expect(StoreConstraint(duplicateSeq) == .unique)
    }
}
