extension WriteTransaction {
    // The sticker's earlier undo, if any, is replaced: a sticker keeps the undo of its last gesture.
    private static let putUndo = """
        INSERT INTO gesture_undos (\(UndoRecord.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (board_id, sticker_id) DO UPDATE SET
            id = excluded.id, kind = excluded.kind, version = excluded.version, snapshot = excluded.snapshot,
            created_at = excluded.created_at, expires_at = excluded.expires_at
        """
    private static let trimBoard = """
        DELETE FROM gesture_undos WHERE board_id = $1 AND id NOT IN (
            SELECT id FROM gesture_undos WHERE board_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)
        """
    private static let deleteUndo = "DELETE FROM gesture_undos WHERE id = $1 AND board_id = $2"
    private static let deleteBoardUndos = "DELETE FROM gesture_undos WHERE board_id = $1"
    private static let purge = """
        DELETE FROM gesture_undos WHERE id IN (SELECT id FROM gesture_undos WHERE expires_at <= $1 LIMIT $2)
        """
    private static let restoreSticker = """
        INSERT INTO stickers (\(StickerRecord.contentColumns), version, created_at, updated_at, committed_at, seq)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35)
        """

    /// Stores the undo of a gesture, replacing the sticker's earlier one, and keeps the board's
    /// newest `keepPerBoard` undos only.
    ///
    /// - Throws: `StoreError.notFound(.board, id:)` when the board does not exist.
    public func putUndo(_ record: UndoRecord, keepPerBoard: Int) throws {
        try scope(board: record.boardId)
        try mapConstraints([.foreignKey: .notFound(.board, id: record.boardId)]) {
            try run(Self.putUndo, record.values)
        }
        try run(Self.trimBoard, [.text(record.boardId), .integer(Int64(max(1, keepPerBoard)))])
    }

    /// Deletes an undo (it was used).
    ///
    /// - Returns: false when the board has no such undo.
    @discardableResult
    public func deleteUndo(id: String, boardId: String) throws -> Bool {
        try scope(board: boardId)
        return try run(Self.deleteUndo, [.text(id), .text(boardId)]) == 1
    }

    /// Deletes every undo of a board: its stickers were cleared, and nothing a gesture deleted
    /// before is to come back onto the cleared board.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteUndos(boardId: String) throws -> Int {
        try scope(board: boardId)
        return try run(Self.deleteBoardUndos, [.text(boardId)])
    }

    /// Deletes undos expired at `now`, at most `limit` per call (keeps the write short).
    ///
    /// - Returns: how many were deleted; call again while it equals `limit`.
    @discardableResult
    public func purgeExpiredUndos(now: Int64, limit: Int = 10_000) throws -> Int {
        try run(Self.purge, [.integer(now), .integer(Int64(max(0, limit)))])
    }

    /// Puts back a sticker a gesture deleted, exactly as it was (its id, creation `seq`, times and
    /// content) at the given `version`, with its writings.
    ///
    /// - Throws: `StoreError.alreadyExists(.sticker, id:)` when a sticker with its id exists,
    ///   `StoreError.notFound(.board, id:)`.
    public func restoreSticker(_ sticker: StickerRecord, inks: [InkRecord]) throws {
        try scope(board: sticker.boardId)
        try mapConstraints([
            .unique: .alreadyExists(.sticker, id: sticker.id),
            .primaryKey: .alreadyExists(.sticker, id: sticker.id),
            .foreignKey: .notFound(.board, id: sticker.boardId),
        ]) {
            try run(Self.restoreSticker, sticker.contentValues + [
                .integer(sticker.version), .integer(sticker.createdAt), .integer(sticker.updatedAt),
                sticker.committedAt.sqlValue, .integer(sticker.seq),
            ])
        }
        for ink in inks { try insertInk(ink) }
    }
}
