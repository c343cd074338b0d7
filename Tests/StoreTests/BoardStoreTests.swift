import Testing
@testable import Store
import TestDatabases

@Suite struct BoardStoreTests {
    @Test func insertReadAndDuplicate() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { try $0.insertBoard(makeBoard("b1")) }
        #expect(try database.read { try $0.board(id: "b1") } == makeBoard("b1"))
        #expect(try database.read { try $0.board(id: "b2") } == nil)
        #expect(throws: StoreError.alreadyExists(.board, id: "b1")) {
            try database.write { try $0.insertBoard(makeBoard("b1")) }
        }
        var bad = makeBoard("b3")
        bad.tokenHash = [1, 2, 3]  // Not a SHA-256.
        let error = try #require(throws: (any Error).self) { try database.write { try $0.insertBoard(bad) } }
        #expect(StoreConstraint(error) == .check)
    }

    @Test func textIsStoredExactlyOrRefused() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        var board = makeBoard("b1")
        board.title = "before\u{0}after"
        if TestDatabases.isSQLite {
            try database.write { try $0.insertBoard(board) }
            #expect(try database.read { try $0.board(id: "b1") }?.title == board.title)
        } else {
            // PostgreSQL's text cannot hold a NUL: refused, never stored cut short.
            #expect(throws: PostgresError.self) { try database.write { try $0.insertBoard(board) } }
            #expect(try database.read { try $0.board(id: "b1") } == nil)
        }
    }

    @Test func deletingABoardCascadesToEverythingItOwns() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { transaction in
            for board in ["doomed", "kept"] {
                try transaction.insertBoard(makeBoard(board))
                for index in 1...3 {
                    let id = "\(board)-s\(index)"
                    try transaction.insertSticker(makeSticker(id, board: board))
                    try transaction.insertInk(InkRecord(id: "\(id)-ink", stickerId: id, boardId: board, seq: 1,
                                                        strokes: [1, 2, 3], createdAt: 1))
                    try transaction.appendEvent(boardId: board, stickerId: id, type: .created, version: 1,
                                                payload: "{}", createdAt: 1)
                }
            }
        }
        #expect(try database.write { try $0.deleteBoard(id: "doomed") })
        #expect(try !database.write { try $0.deleteBoard(id: "doomed") })

        let remaining = try database.read { transaction in
            try ["stickers", "inks", "events"].map { table in
                // Table names are fixed literals here, never input.
                try transaction.query("SELECT board_id, count(*) FROM \(table) GROUP BY board_id").map {
                    "\(table):\($0[0]):\($0[1])"
                }
            }
        }
        #expect(remaining == [["stickers:text(\"kept\"):text(\"3\")"], ["inks:text(\"kept\"):text(\"3\")"],
                             ["events:text(\"kept\"):text(\"3\")"]])
    }
}
