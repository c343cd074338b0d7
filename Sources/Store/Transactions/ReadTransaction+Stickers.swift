extension ReadTransaction {
    private static let selectSticker =
        "SELECT \(StickerRecord.columns) FROM stickers WHERE id = ? AND board_id = ?"
    private static let countStickers = """
        SELECT count(*) FILTER (WHERE state = 'field'), count(*) FILTER (WHERE state = 'label')
        FROM stickers WHERE board_id = ?
        """
    // One statement for every filter combination: absent filters are bound as NULL/0 so the
    // SQL text (and its cached plan) never varies. The (board_id, seq) index drives the scan.
    /// Internal so tests can check its query plan.
    static let listStickersSQL = """
        SELECT \(StickerRecord.columns) FROM stickers
        WHERE board_id = :board AND seq > :after
          AND (:state IS NULL OR state = :state)
          AND (:has_rect = 0 OR (frame_x <= :max_x AND frame_x + frame_width >= :min_x
                                 AND frame_y <= :max_y AND frame_y + frame_height >= :min_y))
        ORDER BY seq
        LIMIT :limit
        """
    private static let fieldsAtPoint = """
        SELECT \(StickerRecord.columns) FROM stickers
        WHERE board_id = ?1 AND state = 'field'
          AND frame_x <= ?2 AND ?2 <= frame_x + frame_width
          AND frame_y <= ?3 AND ?3 <= frame_y + frame_height
        ORDER BY seq DESC
        """
    private static let allFields =
        "SELECT \(StickerRecord.columns) FROM stickers WHERE board_id = ? AND state = 'field' ORDER BY seq"

    /// The sticker `id` if it belongs to `boardId`, else nil.
    public func sticker(id: String, boardId: String) throws -> StickerRecord? {
        try withStatement(Self.selectSticker) { statement in
            try statement.bind(id, boardId)
            return try statement.first(StickerRecord.init(row:))
        }
    }

    /// How many fields and labels the board has.
    public func stickerCounts(boardId: String) throws -> StickerCounts {
        try withStatement(Self.countStickers) { statement in
            try statement.bind(boardId)
            return try statement.first { StickerCounts(fields: $0.int(at: 0), labels: $0.int(at: 1)) }
                ?? StickerCounts(fields: 0, labels: 0)
        }
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
        return try withStatement(Self.listStickersSQL) { statement in
            try statement.bind(boardId, named: ":board")
            try statement.bind(afterSeq ?? 0, named: ":after")
            try statement.bind(state?.rawValue, named: ":state")
            try statement.bind(rect != nil, named: ":has_rect")
            try statement.bind(rect?.x ?? 0, named: ":min_x")
            try statement.bind(rect.map { $0.x + $0.width } ?? 0, named: ":max_x")
            try statement.bind(rect?.y ?? 0, named: ":min_y")
            try statement.bind(rect.map { $0.y + $0.height } ?? 0, named: ":max_y")
            // One extra row tells whether another page exists without a second query.
            try statement.bind(limit + 1, named: ":limit")
            var stickers = try statement.map(StickerRecord.init(row:))
            var nextCursor: Int64?
            if stickers.count > limit {
                stickers.removeLast()
                nextCursor = stickers.last?.seq
            }
            return StickerPage(stickers: stickers, nextCursor: nextCursor)
        }
    }

    /// The board's fields whose frame contains `point` (edges included), topmost (most
    /// recently created) first: "the field under the pen" is the first element.
    public func fields(boardId: String, containing point: StickerRecord.Point) throws -> [StickerRecord] {
        try withStatement(Self.fieldsAtPoint) { statement in
            try statement.bind(boardId, point.x, point.y)
            return try statement.map(StickerRecord.init(row:))
        }
    }

    /// Every field of the board in creation order (to commit them all when editing ends).
    public func fields(boardId: String) throws -> [StickerRecord] {
        try withStatement(Self.allFields) { statement in
            try statement.bind(boardId)
            return try statement.map(StickerRecord.init(row:))
        }
    }
}
