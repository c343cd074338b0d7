import Testing
@testable import Store
import TestDatabases

@Suite struct StickerStoreTests {
    private let directory: TemporaryDirectory
    private let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        database = try openDatabase(directory, boards: ["board-1", "board-2"])
    }

    @Test func insertAssignsIncreasingSeqAndVersionOne() throws {
        var record = makeSticker("s1")
        record.version = 7  // Ignored: a new sticker starts at version 1.
        record.style.fillColor = "#ffeeaa"
        record.style.lineLimit = 2
        record.maxLength = 12
        record.charset = "0123456789"
        let (first, second) = try database.write { transaction in
            (try transaction.insertSticker(record), try transaction.insertSticker(makeSticker("s2")))
        }
        #expect(first.version == 1)
        #expect(second.seq > first.seq)
        let stored = try database.read { try $0.sticker(id: "s1", boardId: "board-1") }
        #expect(stored == first)
        #expect(stored?.style.fillColor == "#ffeeaa")
        #expect(stored?.maxLength == 12)
        // A sticker is only visible through its own board.
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-2") } == nil)
    }

    @Test func insertErrorsAreTyped() throws {
        try database.write { try $0.insertSticker(makeSticker("s1")) }
        #expect(throws: StoreError.alreadyExists(.sticker, id: "s1")) {
            try database.write { try $0.insertSticker(makeSticker("s1", board: "board-2")) }
        }
        #expect(throws: StoreError.notFound(.board, id: "nope")) {
            try database.write { try $0.insertSticker(makeSticker("s9", board: "nope")) }
        }
    }

    @Test func updateChecksTheExpectedVersion() throws {
        try database.write { try $0.insertSticker(makeSticker("s1")) }
        var edit = makeSticker("s1", text: "hallo", at: 5)
        let updated = try database.write { try $0.updateSticker(edit, expectedVersion: 1) }
        #expect(updated.version == 2)
        #expect(updated.createdAt == 1_700_000_000_000)  // Kept from the insert.
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-1") } == updated)

        // A second client still holding version 1 loses.
        edit.text = "stale"
        #expect(throws: StoreError.versionConflict(stickerId: "s1", expected: 1, actual: 2)) {
            try database.write { try $0.updateSticker(edit, expectedVersion: 1) }
        }
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-1")?.text } == "hallo")
        #expect(throws: StoreError.notFound(.sticker, id: "ghost")) {
            try database.write { try $0.updateSticker(makeSticker("ghost"), expectedVersion: 1) }
        }
        // Wrong board: as good as missing.
        #expect(throws: StoreError.notFound(.sticker, id: "s1")) {
            try database.write { try $0.updateSticker(makeSticker("s1", board: "board-2"), expectedVersion: 2) }
        }
    }

    @Test func fieldBecomesLabelButNeverBack() throws {
        try database.write { try $0.insertSticker(makeSticker("s1")) }
        var label = makeSticker("s1", state: .label, at: 10)
        label = try database.write { try $0.updateSticker(label, expectedVersion: 1) }
        #expect(label.state == .label)
        #expect(label.committedAt == 10)

        var back = label
        back.state = .field
        back.committedAt = nil
        #expect(throws: StoreError.labelIsFinal(stickerId: "s1")) {
            try database.write { try $0.updateSticker(back, expectedVersion: 2) }
        }
        // The trigger itself, bypassing the typed API.
        let error = try #require(throws: (any Error).self) {
            try database.write { transaction in
                _ = try transaction.query("UPDATE stickers SET state = 'field', committed_at = NULL WHERE id = $1", [.text("s1")])
            }
        }
        #expect(StoreConstraint(error) == .trigger)
        #expect("\(error)".contains("a label cannot become a field again"))
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-1")?.state } == .label)
        // Other edits of a label are still allowed.
        var relabel = label
        relabel.text = "final text"
        #expect(try database.write { try $0.updateSticker(relabel, expectedVersion: 2) }.version == 3)
    }

    @Test func stateIsCheckConstrained() throws {
        try database.write { try $0.insertSticker(makeSticker("s1")) }
        let error = try #require(throws: (any Error).self) {
            try database.write { transaction in
                _ = try transaction.query("UPDATE stickers SET state = 'draft' WHERE id = $1", [.text("s1")])
            }
        }
        #expect(StoreConstraint(error) == .check)
    }

    /// Candidates are typed data: they read back as stored, and a row whose candidates are not
    /// the JSON array they are stored as fails loudly instead of reading as no candidates.
    @Test func candidatesRoundTripAndCorruptOnesFailLoudly() throws {
        var record = makeSticker("s1")
        record.candidates = [.init(text: "milk", confidence: 0.75), .init(text: "mi1k \"q\"", confidence: 0.25)]
        try database.write { try $0.insertSticker(record) }
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-1") }?.candidates == record.candidates)
        for corrupt in ["not json", #"[{"text":1}]"#, #"{"text":"a"}"#] {
            try database.write { transaction in
                _ = try transaction.query("UPDATE stickers SET candidates = $1 WHERE id = $2", [.text(corrupt), .text("s1")])
            }
            let error = try #require(throws: StoreError.self) { try database.read { try $0.sticker(id: "s1", boardId: "board-1") } }
            guard case .corruptValue(_, let column, _) = error else { Issue.record("\(error)"); continue }
            #expect(column == "candidates")
        }
    }

    @Test func deleteWithAndWithoutVersion() throws {
        try database.write { transaction in
            try transaction.insertSticker(makeSticker("s1"))
            try transaction.insertSticker(makeSticker("s2"))
        }
        #expect(throws: StoreError.versionConflict(stickerId: "s1", expected: 4, actual: 1)) {
            try database.write { try $0.deleteSticker(id: "s1", boardId: "board-1", expectedVersion: 4) }
        }
        #expect(try database.write { try $0.deleteSticker(id: "s1", boardId: "board-1", expectedVersion: 1) })
        #expect(try !database.write { try $0.deleteSticker(id: "s1", boardId: "board-1", expectedVersion: 1) })
        #expect(try !database.write { try $0.deleteSticker(id: "s2", boardId: "board-2") })
        #expect(try database.write { try $0.deleteSticker(id: "s2", boardId: "board-1") })
    }

    @Test func countsAndDeleteAllArePerBoard() throws {
        try database.write { transaction in
            try transaction.insertSticker(makeSticker("f1"))
            try transaction.insertSticker(makeSticker("f2"))
            try transaction.insertSticker(makeSticker("l1", state: .label))
            try transaction.insertSticker(makeSticker("other", board: "board-2"))
        }
        #expect(try database.read { try $0.stickerCounts(boardId: "board-1") } == StickerCounts(fields: 2, labels: 1))
        #expect(try database.write { try $0.deleteAllStickers(boardId: "board-1") } == 3)
        #expect(try database.read { try $0.stickerCounts(boardId: "board-1") } == StickerCounts(fields: 0, labels: 0))
        #expect(try database.read { try $0.stickerCounts(boardId: "board-2").total } == 1)
    }

    /// Stickers laid out on a grid: column c, row r at (c*100, r*100), 50×50.
    private func insertGrid() throws {
        try database.write { transaction in
            for row in 0..<3 {
                for column in 0..<4 {
                    let id = "r\(row)c\(column)"
                    try transaction.insertSticker(makeSticker(
                        id, state: (row + column) % 2 == 0 ? .field : .label,
                        frame: .init(x: Double(column * 100), y: Double(row * 100), width: 50, height: 50)))
                }
            }
            try transaction.insertSticker(makeSticker("elsewhere", board: "board-2"))
        }
    }

    @Test func listingPagesInCreationOrder() throws {
        try insertGrid()
        var ids: [String] = []
        var cursor: Int64?
        var pages = 0
        repeat {
            let page = try database.read { try $0.listStickers(boardId: "board-1", afterSeq: cursor, limit: 5) }
            ids += page.stickers.map(\.id)
            #expect(page.stickers.count <= 5)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil
        #expect(pages == 3)  // 12 stickers: 5 + 5 + 2, the last page has no cursor.
        #expect(ids == (0..<3).flatMap { row in (0..<4).map { "r\(row)c\($0)" } })

        // Exactly a full page: no phantom next page.
        let all = try database.read { try $0.listStickers(boardId: "board-1", limit: 12) }
        #expect(all.stickers.count == 12)
        #expect(all.nextCursor == nil)
    }

    @Test func cursorIsStableAcrossDeletesAndInserts() throws {
        try insertGrid()
        let first = try database.read { try $0.listStickers(boardId: "board-1", limit: 4) }
        try database.write { transaction in
            try transaction.deleteSticker(id: "r0c1", boardId: "board-1")  // Already seen.
            try transaction.deleteSticker(id: "r1c0", boardId: "board-1")  // Not yet seen.
            try transaction.insertSticker(makeSticker("late"))
        }
        let rest = try database.read {
            try $0.listStickers(boardId: "board-1", afterSeq: first.nextCursor, limit: 100)
        }
        #expect(rest.stickers.map(\.id) == ["r1c1", "r1c2", "r1c3", "r2c0", "r2c1", "r2c2", "r2c3", "late"])
    }

    @Test func listingFiltersByStateAndRect() throws {
        try insertGrid()
        let labels = try database.read { try $0.listStickers(boardId: "board-1", state: .label, limit: 100) }
        #expect(labels.stickers.map(\.id) == ["r0c1", "r0c3", "r1c0", "r1c2", "r2c1", "r2c3"])

        // Covers columns 1–2 of rows 0–1; touching the edge of r0c1 (x = 150) counts.
        let window = StickerRecord.Rect(x: 150, y: 0, width: 110, height: 120)
        let inWindow = try database.read {
            try $0.listStickers(boardId: "board-1", intersecting: window, limit: 100)
        }
        #expect(inWindow.stickers.map(\.id) == ["r0c1", "r0c2", "r1c1", "r1c2"])

        let fieldsInWindow = try database.read {
            try $0.listStickers(boardId: "board-1", state: .field, intersecting: window, limit: 1)
        }
        #expect(fieldsInWindow.stickers.map(\.id) == ["r0c2"])
        let next = try database.read {
            try $0.listStickers(boardId: "board-1", state: .field, intersecting: window,
                                afterSeq: fieldsInWindow.nextCursor, limit: 1)
        }
        #expect(next.stickers.map(\.id) == ["r1c1"])
        #expect(next.nextCursor == nil)

        let empty = StickerRecord.Rect(x: 60, y: 60, width: 30, height: 30)  // The gap between stickers.
        #expect(try database.read {
            try $0.listStickers(boardId: "board-1", intersecting: empty, limit: 10)
        }.stickers.isEmpty)
    }

    @Test func fieldsUnderThePenTopmostFirst() throws {
        try database.write { transaction in
            try transaction.insertSticker(makeSticker("low", frame: .init(x: 0, y: 0, width: 200, height: 100)))
            try transaction.insertSticker(makeSticker("high", frame: .init(x: 50, y: 20, width: 100, height: 40)))
            try transaction.insertSticker(makeSticker("label", state: .label,
                                                      frame: .init(x: 0, y: 0, width: 500, height: 500)))
            try transaction.insertSticker(makeSticker("far", frame: .init(x: 1000, y: 1000, width: 10, height: 10)))
        }
        let underPen = try database.read { try $0.fields(boardId: "board-1", containing: .init(x: 60, y: 30)) }
        #expect(underPen.map(\.id) == ["high", "low"])
        let corner = try database.read { try $0.fields(boardId: "board-1", containing: .init(x: 200, y: 100)) }
        #expect(corner.map(\.id) == ["low"])  // Edges are inside.
        #expect(try database.read { try $0.fields(boardId: "board-1", containing: .init(x: 300, y: 300)) }.isEmpty)
        #expect(try database.read { try $0.fields(boardId: "board-1") }.map(\.id) == ["low", "high", "far"])
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite's query plan"))
    func listingUsesTheBoardIndex() throws {
        let plan = try database.read { transaction in
            try transaction.withStatement("EXPLAIN QUERY PLAN " + ReadTransaction.listStickersSQL) {
                try $0.map { $0.string(at: 3) }.joined(separator: "\n")
            }
        }
        #expect(plan.contains("stickers_board_seq"))
        #expect(!plan.contains("TEMP B-TREE"))  // No sort step: the index gives the order.
    }

    /// A rectangle query on a big board reads the spatial index (SQLite's R*Tree, PostgreSQL's
    /// GiST), finds exactly what a scan finds, and keeps the frames in step as stickers move.
    @Test func rectangleQueriesUseTheSpatialIndex() throws {
        var all: [StickerRecord] = []
        try database.write { transaction in
            for i in 0..<2_000 {
                let frame = StickerRecord.Rect(x: Double(i % 50) * 40, y: Double(i / 50) * 30, width: 35, height: 25)
                all.append(try transaction.insertSticker(makeSticker("g\(i)", frame: frame)))
            }
        }
        let rect = StickerRecord.Rect(x: 100, y: 100, width: 60, height: 40)
        func expected(_ stickers: [StickerRecord]) -> [String] {
            stickers.filter { $0.frame.x <= rect.x + rect.width && $0.frame.x + $0.frame.width >= rect.x
                && $0.frame.y <= rect.y + rect.height && $0.frame.y + $0.frame.height >= rect.y }.map(\.id)
        }
        let found = try database.read { try $0.listStickers(boardId: "board-1", intersecting: rect, limit: 1_000) }
        #expect(found.stickers.map(\.id) == expected(all))
        #expect(found.stickers.count == 6)  // 3 columns (one touching) × 2 rows

        // A sticker moved into the rectangle is found there, and no longer where it was.
        var moved = all[1_999]
        moved.frame = StickerRecord.Rect(x: 110, y: 105, width: 10, height: 10)
        moved = try database.write { try $0.updateSticker(moved, expectedVersion: 1) }
        all[1_999] = moved
        let after = try database.read { try $0.listStickers(boardId: "board-1", intersecting: rect, limit: 1_000) }
        #expect(after.stickers.map(\.id) == expected(all))
        try database.write { _ = try $0.deleteSticker(id: moved.id, boardId: "board-1") }
        all.removeLast()
        #expect(try database.read { try $0.listStickers(boardId: "board-1", intersecting: rect, limit: 1_000) }
            .stickers.map(\.id) == expected(all))

        let sql = ReadTransaction.listStickersInRectSQL(TestDatabases.engine)
        let values: [SQLValue] = [.text("board-1"), .integer(0), .null, .real(100), .real(160), .real(100), .real(140), .integer(51)]
        let plan = try database.read { transaction in
            if TestDatabases.isSQLite {
                return try transaction.withStatement("EXPLAIN QUERY PLAN " + sql) { statement in
                    for (offset, value) in values.enumerated() { if case .real(let v) = value { try statement.bind(v, at: offset + 1) } }
                    return try statement.map { $0.string(at: 3) }.joined(separator: "\n")
                }
            }
            // The plan a prepared statement ends up with: generic, knowing no parameter.
            _ = try transaction.query("ANALYZE stickers")
            _ = try transaction.query("SET LOCAL plan_cache_mode = force_generic_plan")
            _ = try transaction.query("PREPARE rect(text, bigint, text, float8, float8, float8, float8, bigint) AS " + sql)
            defer { _ = try? transaction.query("DEALLOCATE rect") }
            return try transaction.query("EXPLAIN EXECUTE rect('board-1', 0, NULL, 100, 160, 100, 140, 51)").map { row in
                if case .text(let line) = row[0] { return line } else { return "" }
            }.joined(separator: "\n")
        }
        #expect(plan.contains(TestDatabases.isSQLite ? "sticker_frames VIRTUAL TABLE INDEX" : "stickers_board_frame"), "\(plan)")
    }
}
