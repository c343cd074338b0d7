extension ReadTransaction {
    private static let selectUndo = """
        SELECT \(UndoRecord.columns) FROM gesture_undos WHERE id = $1 AND board_id = $2 AND expires_at > $3
        """

    /// The undo `id` of the board, if it has not expired at `now`.
    public func undo(id: String, boardId: String, now: Int64) throws -> UndoRecord? {
        try scope(board: boardId)
        return try first(Self.selectUndo, [.text(id), .text(boardId), .integer(now)], UndoRecord.init(row:))
    }

    /// Stickers whose frame meets the rectangle ($2 ≤ x ≤ $3, $4 ≤ y ≤ $5), newest first, from the
    /// same spatial indexes as `listStickers(intersecting:)`.
    static func topmostInRectSQL(_ engine: StoreEngine) -> String {
        switch engine {
        case .sqlite:
            """
            SELECT \(StickerRecord.columns) FROM stickers
            WHERE seq IN (SELECT seq FROM sticker_frames WHERE max_x >= $2 AND min_x <= $3 AND max_y >= $4 AND min_y <= $5)
              AND board_id = $1
              AND frame_x + frame_width >= $2 AND frame_x <= $3 AND frame_y + frame_height >= $4 AND frame_y <= $5
            ORDER BY seq DESC
            LIMIT $6
            """
        case .postgresql:
            // OFFSET 0: the inner query is planned on its own, from the GiST index (see listStickers).
            """
            SELECT * FROM (
                SELECT \(StickerRecord.columns) FROM stickers
                WHERE board_id = $1
                  AND box(point(frame_x, frame_y), point(frame_x + frame_width, frame_y + frame_height))
                      && box(point($2, $4), point($3, $5))
                OFFSET 0) AS found
            ORDER BY seq DESC
            LIMIT $6
            """
        }
    }

    /// The board's stickers whose frame meets `rect` (edges included), topmost (most recently
    /// created) first, at most `limit`: those a pen gesture over `rect` may be drawn on. Unlike a
    /// page of `listStickers(intersecting:)`, which starts at the oldest, the ones on top are never
    /// left out when more than `limit` lie under the ink.
    public func topmostStickers(boardId: String, intersecting rect: StickerRecord.Rect, limit: Int) throws -> [StickerRecord] {
        try checkLimit(limit)
        try scope(board: boardId)
        return try rows(Self.topmostInRectSQL(engine),
                        [.text(boardId), .real(rect.x), .real(rect.x + rect.width), .real(rect.y), .real(rect.y + rect.height),
                         .integer(Int64(limit))],
                        StickerRecord.init(row:))
    }
}
