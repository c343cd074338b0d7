extension ReadTransaction {
    private static let selectSticker =
        "SELECT \(StickerRecord.columns) FROM stickers WHERE id = $1 AND board_id = $2"
    private static let countStickers = """
        SELECT count(*) FILTER (WHERE state = 'field'), count(*) FILTER (WHERE state = 'label')
        FROM stickers WHERE board_id = $1
        """
    // One statement with or without a state filter (bound as NULL when absent), so the SQL
    // text (and its cached plan) never varies. The (board_id, seq) index drives the scan.
    /// Internal so tests can check its query plan.
    static let listStickersSQL = """
        SELECT \(StickerRecord.columns) FROM stickers
        WHERE board_id = $1 AND seq > $2 AND (CAST($3 AS TEXT) IS NULL OR state = $3)
        ORDER BY seq
        LIMIT $4
        """
    /// Stickers whose frame meets the rectangle ($4 ≤ x ≤ $5, $6 ≤ y ≤ $7), from each engine's
    /// spatial index: SQLite's R*Tree `sticker_frames` (a superset, then the exact frame), or
    /// PostgreSQL's GiST index on (board_id, frame box); `&&` counts touching edges, as here.
    static func listStickersInRectSQL(_ engine: StoreEngine) -> String {
        switch engine {
        case .sqlite:
            """
            SELECT \(StickerRecord.columns) FROM stickers
            WHERE seq IN (SELECT seq FROM sticker_frames WHERE max_x >= $4 AND min_x <= $5 AND max_y >= $6 AND min_y <= $7)
              AND board_id = $1 AND seq > $2 AND (CAST($3 AS TEXT) IS NULL OR state = $3)
              AND frame_x + frame_width >= $4 AND frame_x <= $5 AND frame_y + frame_height >= $6 AND frame_y <= $7
            ORDER BY seq
            LIMIT $8
            """
        case .postgresql:
            // OFFSET 0 plans the inner query on its own: the statement is prepared, and a generic
            // plan that knows neither the rectangle nor the limit would otherwise walk the board
            // in seq order and filter every sticker.
            """
            SELECT * FROM (
                SELECT \(StickerRecord.columns) FROM stickers
                WHERE board_id = $1
                  AND box(point(frame_x, frame_y), point(frame_x + frame_width, frame_y + frame_height))
                      && box(point($4, $6), point($5, $7))
                OFFSET 0) AS found
            WHERE seq > $2 AND (CAST($3 AS TEXT) IS NULL OR state = $3)
            ORDER BY seq
            LIMIT $8
            """
        }
    }
    private static let fieldsAtPoint = """
        SELECT \(StickerRecord.columns) FROM stickers
        WHERE board_id = $1 AND state = 'field'
          AND frame_x <= $2 AND $2 <= frame_x + frame_width
          AND frame_y <= $3 AND $3 <= frame_y + frame_height
        ORDER BY seq DESC
        """
    private static let allFields =
        "SELECT \(StickerRecord.columns) FROM stickers WHERE board_id = $1 AND state = 'field' ORDER BY seq"

    /// The sticker `id` if it belongs to `boardId`, else nil.
    public func sticker(id: String, boardId: String) throws -> StickerRecord? {
        try scope(board: boardId)
        return try first(Self.selectSticker, [.text(id), .text(boardId)], StickerRecord.init(row:))
    }

    /// How many fields and labels the board has.
    public func stickerCounts(boardId: String) throws -> StickerCounts {
        try scope(board: boardId)
        return try first(Self.countStickers, [.text(boardId)]) { StickerCounts(fields: $0.int(at: 0), labels: $0.int(at: 1)) }
            ?? StickerCounts(fields: 0, labels: 0)
    }

    /// A page of the board's stickers in creation order.
    ///
    /// - Parameters:
    ///   - state: only fields or only labels; nil for both.
    ///   - rect: only stickers whose frame intersects `rect` (edges touching count, so a
    ///     zero-size rect selects the stickers containing that point); nil for all.
    ///   - afterSeq: the previous page's `nextCursor`; nil for the first page.
    ///   - limit: 1…`configuration.maxPageSize`.
    public func listStickers(boardId: String, state: StickerRecord.State? = nil,
                             intersecting rect: StickerRecord.Rect? = nil,
                             afterSeq: Int64? = nil, limit: Int) throws -> StickerPage {
        try checkLimit(limit)
        try scope(board: boardId)
        // One extra row tells whether another page exists without a second query.
        var values: [SQLValue] = [.text(boardId), .integer(afterSeq ?? 0), state?.rawValue.sqlValue ?? .null]
        let sql: String
        if let rect {
            values += [.real(rect.x), .real(rect.x + rect.width), .real(rect.y), .real(rect.y + rect.height)]
            sql = Self.listStickersInRectSQL(engine)
        } else {
            sql = Self.listStickersSQL
        }
        values.append(.integer(Int64(limit + 1)))
        var stickers = try rows(sql, values, StickerRecord.init(row:))
        var nextCursor: Int64?
        if stickers.count > limit {
            stickers.removeLast()
            nextCursor = stickers.last?.seq
        }
        return StickerPage(stickers: stickers, nextCursor: nextCursor)
    }

    /// The board's fields whose frame contains `point` (edges included), topmost (most
    /// recently created) first: "the field under the pen" is the first element.
    public func fields(boardId: String, containing point: StickerRecord.Point) throws -> [StickerRecord] {
        try scope(board: boardId)
        return try rows(Self.fieldsAtPoint, [.text(boardId), .real(point.x), .real(point.y)], StickerRecord.init(row:))
    }

    /// Every field of the board in creation order (to commit them all when editing ends).
    public func fields(boardId: String) throws -> [StickerRecord] {
        try scope(board: boardId)
        return try rows(Self.allFields, [.text(boardId)], StickerRecord.init(row:))
    }
}
