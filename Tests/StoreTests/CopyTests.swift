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
                                   payload: "{\"n\":\(i)}", createdAt: i < 3 ? 6 : 3)
            }
            try tx.deleteSticker(id: "s1", boardId: "b1")  // a gap in seq, kept by the copy
            try tx.putIdempotencyRecord(IdempotencyRecord(boardId: "b1", key: "k", requestHash: [9, 9], status: 201,
                                                          responseBody: Array("{}".utf8), responseHeaders: "[]",
                                                          createdAt: 1, expiresAt: 9_999_999_999_999))
            // Retention took b2's two events (ids 4 and 5): the largest event id is now only in b2's row.
            #expect(try tx.purgeEvents(createdBefore: 5, limit: 100)?.count == 2)
        }
        let target = try Database(location: TestDatabases.location(sqlitePath: directory.file("target.sqlite")),
                                  migrationsDirectory: repositoryMigrations)
        defer { try? target.close() }
        let copied = try source.copyEverything(to: target)
        #expect(copied.map(\.rows) == [2, 4, 4, 3, 1])

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
        #expect(event.id == 6)  // after the deleted ids too: a stream resuming from 5 would skip 4 or 5
        #expect(try target.read { try $0.latestEventId(boardId: "b2") } == 5)
        #expect(throws: StoreError.unsupported("copies into a database that has boards")) { try source.copyEverything(to: target) }
    }
}
