import Testing
@testable import Store

/// Gesture undos on the engine the suite runs on (SQLite, or PostgreSQL with INKSTICKER_TEST_POSTGRES).
@Suite struct UndoStoreTests {
    private func undo(_ id: String, sticker: StickerRecord, kind: UndoRecord.Kind = .words, inks: [InkRecord] = [],
                      at time: Int64 = 1_000, ttl: Int64 = 1_000) -> UndoRecord {
        UndoRecord(id: id, boardId: sticker.boardId, stickerId: sticker.id, kind: kind, version: sticker.version,
                   sticker: sticker, inks: inks, createdAt: time, expiresAt: time + ttl)
    }

    @Test func theSnapshotComesBackExactly() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory, boards: ["b1"])
        defer { try? database.close() }
        // Values that a lossy encoding would change: thirds, tiny and huge doubles, nil and set optionals, Hangul and emoji.
        var sticker = makeSticker("s1", board: "b1", frame: .init(x: -1.0 / 3, y: 1e-300, width: 2.0 / 3, height: 1e300),
                                  text: "dolls \u{1F9F8} 한글\nline two")
        sticker.style.fillColor = "#FFF"
        sticker.style.lineLimit = 3
        sticker.maxLength = 40
        sticker.charset = "text"
        sticker.version = 7
        sticker.seq = 12
        sticker.candidates = [.init(text: "dolls", confidence: 0.123456789), .init(text: "dells", confidence: 1.0 / 7)]
        let ink = InkRecord(id: "i1", stickerId: "s1", boardId: "b1", seq: 2, strokes: [0, 1, 2, 255, 128], createdAt: 5)
        let record = undo("u1", sticker: sticker, kind: .sticker, inks: [ink])
        try database.write { try $0.putUndo(record, keepPerBoard: 10) }
        #expect(try database.read { try $0.undo(id: "u1", boardId: "b1", now: 1_500) } == record)
        // Another board's undo is not this one's; an expired one is gone (expiresAt is exclusive).
        #expect(try database.read { try $0.undo(id: "u1", boardId: "b2", now: 1_500) } == nil)
        #expect(try database.read { try $0.undo(id: "u1", boardId: "b1", now: 2_000) } == nil)
    }

    @Test func aStickerKeepsItsLastUndoAndABoardItsNewest() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory, boards: ["b1"])
        defer { try? database.close() }
        let first = makeSticker("s1", board: "b1")
        try database.write { tx in
            try tx.putUndo(undo("u1", sticker: first, at: 1_000), keepPerBoard: 3)
            try tx.putUndo(undo("u2", sticker: first, at: 1_001), keepPerBoard: 3)
        }
        #expect(try database.read { try $0.undo(id: "u1", boardId: "b1", now: 1_100) } == nil)
        #expect(try database.read { try $0.undo(id: "u2", boardId: "b1", now: 1_100) }?.stickerId == "s1")
        try database.write { tx in
            for index in 3...6 { try tx.putUndo(undo("u\(index)", sticker: makeSticker("s\(index)", board: "b1"), at: 1_000 + Int64(index)), keepPerBoard: 3) }
        }
        let kept = try database.read { tx in try (2...6).filter { try tx.undo(id: "u\($0)", boardId: "b1", now: 1_100) != nil } }
        #expect(kept == [4, 5, 6])
        // Used once.
        #expect(try database.write { try $0.deleteUndo(id: "u6", boardId: "b1") })
        #expect(try !database.write { try $0.deleteUndo(id: "u6", boardId: "b1") })
        // Expired ones are purged, in batches; live ones stay.
        try database.write { try $0.putUndo(undo("u9", sticker: makeSticker("s9", board: "b1"), at: 5_000), keepPerBoard: 10) }
        #expect(try database.write { try $0.purgeExpiredUndos(now: 3_000, limit: 1) } == 1)
        #expect(try database.write { try $0.purgeExpiredUndos(now: 3_000) } == 1)
        #expect(try database.read { try $0.undo(id: "u9", boardId: "b1", now: 5_500) } != nil)
        // An undo goes with its board.
        try database.write { _ = try $0.deleteBoard(id: "b1") }
        #expect(try database.read { try $0.undo(id: "u9", boardId: "b1", now: 5_500) } == nil)
    }

    @Test func aDeletedStickerIsRestoredWithItsSeqVersionAndWritings() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory, boards: ["b1"])
        defer { try? database.close() }
        let (stored, inks) = try database.write { tx -> (StickerRecord, [InkRecord]) in
            try tx.insertSticker(makeSticker("s0", board: "b1"))
            let stored = try tx.insertSticker(makeSticker("s1", board: "b1"))
            try tx.insertInk(InkRecord(id: "i1", stickerId: "s1", boardId: "b1", seq: 1, strokes: [1, 2, 3], createdAt: 1))
            try tx.insertSticker(makeSticker("s2", board: "b1"))
            var updated = stored
            updated.text = "dolls"
            let current = try tx.updateSticker(updated, expectedVersion: 1)
            return (current, try tx.inks(stickerId: "s1"))
        }
        try database.write { tx in _ = try tx.deleteSticker(id: "s1", boardId: "b1", expectedVersion: 2) }
        var restored = stored
        restored.version = 3
        try database.write { try $0.restoreSticker(restored, inks: inks) }
        let (back, backInks, order) = try database.read { tx in
            (try tx.sticker(id: "s1", boardId: "b1"), try tx.inks(stickerId: "s1"),
             try tx.listStickers(boardId: "b1", limit: 10).stickers.map(\.id))
        }
        #expect(back == restored)
        #expect(backInks == inks)
        #expect(order == ["s0", "s1", "s2"], "back in its place in the creation order")
        // Found by its frame again (SQLite's R*Tree, PostgreSQL's GiST index).
        let found = try database.read { try $0.listStickers(boardId: "b1", intersecting: restored.frame, limit: 10).stickers.map(\.id) }
        #expect(found.contains("s1"))
        #expect(throws: StoreError.alreadyExists(.sticker, id: "s1")) { try database.write { try $0.restoreSticker(restored, inks: []) } }
    }
}
