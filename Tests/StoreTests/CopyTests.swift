import Foundation
import Testing
@testable import Store
import TestDatabases

/// `copy-db`: a SQLite file's boards moved into the suite's engine (PostgreSQL when the suite runs
/// there, else another SQLite file), with ids, cursors and event ids kept, and new rows after them.
@Suite struct CopyTests {
    @Test func copyKeepsEveryRowAndIdentityCarriesOn() throws {
        let directory = try TemporaryDirectory()
        let source = try Database(path: directory.file("source.sqlite"), migrationsDirectory: repositoryMigrations)
        defer { try? source.close() }
        try source.write { tx in
            try tx.insertBoard(makeBoard("b1"))
            try tx.insertBoard(makeBoard("b2"))
            for i in 0..<5 {
                let sticker = try tx.insertSticker(makeSticker("s\(i)", board: i < 3 ? "b1" : "b2", text: "wörd \(i)\t\"q\""))
                try tx.insertInk(InkRecord(id: "i\(i)", stickerId: sticker.id, boardId: sticker.boardId, seq: 1,
                                           strokes: [0, 1, 2, 255, UInt8(i)], createdAt: 5))
                try tx.appendEvent(boardId: sticker.boardId, stickerId: sticker.id, type: .created, version: 1,
                                   payload: "{\"n\":\(i)}", createdAt: 6)
            }
            try tx.deleteSticker(id: "s1", boardId: "b1")  // a gap in seq, kept by the copy
            try tx.putIdempotencyRecord(IdempotencyRecord(boardId: "b1", key: "k", requestHash: [9, 9], status: 201,
                                                          responseBody: Array("{}".utf8), responseHeaders: "[]",
                                                          createdAt: 1, expiresAt: 9_999_999_999_999))
            // The undo of a gesture that deleted s1, with s1 and its writing inside.
            try tx.putUndo(UndoRecord(id: "u1", boardId: "b1", stickerId: "s1", kind: .sticker, version: 1,
                                      sticker: makeSticker("s1", board: "b1"), inks: [], createdAt: 1,
                                      expiresAt: 9_999_999_999_999), keepPerBoard: 50)
        }
        let target = try Database(location: TestDatabases.location(sqlitePath: directory.file("target.sqlite")),
                                  migrationsDirectory: repositoryMigrations)
        defer { try? target.close() }
        let copied = try source.copyEverything(to: target)
        #expect(copied.map(\.rows) == [2, 4, 4, 5, 1, 1])

        func snapshot(_ database: Database) throws -> [String] {
            try database.read { tx in
                var lines: [String] = []
                for board in ["b1", "b2"] {
                    lines.append("\(try #require(try tx.board(id: board)))")
                    for sticker in try tx.listStickers(boardId: board, limit: 100).stickers {
                        lines.append("\(sticker)")
                        lines.append("\(try tx.inks(stickerId: sticker.id))")
                    }
                    lines.append("\(try tx.events(boardId: board, limit: 100))")
                }
                lines.append("\(String(describing: try tx.idempotencyRecord(boardId: "b1", key: "k", now: 2)))")
                lines.append("\(String(describing: try tx.undo(id: "u1", boardId: "b1", now: 2)))")
                return lines
            }
        }
        #expect(try snapshot(target) == snapshot(source))

        // New rows continue after the copied ones; a second copy into a database with boards is refused.
        let (sticker, event) = try target.write { tx in
            (try tx.insertSticker(makeSticker("new", board: "b1")),
             try tx.appendEvent(boardId: "b1", stickerId: "new", type: .created, version: 1, payload: "{}", createdAt: 7))
        }
        #expect(sticker.seq == 6)
        #expect(event.id == 6)
        #expect(throws: StoreError.unsupported("copies into a database that has boards")) { try source.copyEverything(to: target) }
    }

    /// Retention deleted every event: the largest id is only in the board's row, and the copy's
    /// next event must come after it (a stream resuming from it would never see a smaller one).
    @Test func copyContinuesEventIdsAfterDeletedOnes() throws {
        let directory = try TemporaryDirectory()
        let source = try Database(path: directory.file("source.sqlite"), migrationsDirectory: repositoryMigrations)
        defer { try? source.close() }
        try source.write { tx in
            try tx.insertBoard(makeBoard("b1"))
            for version in 1...3 {
                try tx.appendEvent(boardId: "b1", stickerId: "s", type: .updated, version: Int64(version), payload: "{}", createdAt: 1)
            }
        }
        while try source.write({ try $0.purgeEvents(createdBefore: 2, limit: 100) }) != nil {}
        #expect(try source.read { try $0.board(id: "b1") }?.eventsPurgedThrough == 3)
        let target = try Database(location: TestDatabases.location(sqlitePath: directory.file("target.sqlite")),
                                  migrationsDirectory: repositoryMigrations)
        defer { try? target.close() }
        #expect(try source.copyEverything(to: target).map(\.rows) == [1, 0, 0, 0, 0, 0])
        #expect(try target.read { try $0.board(id: "b1") }?.eventsPurgedThrough == 3)
        #expect(try target.read { try $0.latestEventId(boardId: "b1") } == 3)
        let next = try target.write {
            try $0.appendEvent(boardId: "b1", stickerId: "s", type: .deleted, version: 4, payload: "{}", createdAt: 5)
        }
        #expect(next.id == 4)
    }
}
