extension WriteTransaction {
    private static let insertSticker = """
        INSERT INTO stickers (\(StickerRecord.contentColumns), version, created_at, updated_at, committed_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, 1, $31, $32, $33)
        RETURNING seq
        """
    private static let updateSticker = """
        UPDATE stickers SET
            state = $3, text = $4, recognized_text = $5, confidence = $6, candidates = $7,
            anchor_x = $8, anchor_y = $9, center_x = $10, center_y = $11,
            frame_x = $12, frame_y = $13, frame_width = $14, frame_height = $15,
            font_family = $16, font_size = $17, stroke_width = $18, stroke_color = $19, fill_color = $20,
            kerning = $21, line_height = $22, alignment = $23, line_limit = $24, max_length = $25,
            charset = $26, ink_x = $27, ink_y = $28, ink_width = $29, ink_height = $30,
            version = version + 1, updated_at = $31, committed_at = $32
        WHERE id = $1 AND board_id = $2 AND version = $33
        RETURNING seq, created_at
        """
    private static let selectVersion = "SELECT version FROM stickers WHERE id = $1 AND board_id = $2"
    private static let deleteSticker =
        "DELETE FROM stickers WHERE id = $1 AND board_id = $2 AND (CAST($3 AS BIGINT) IS NULL OR version = $3)"
    private static let deleteAllStickers = "DELETE FROM stickers WHERE board_id = $1"

    /// Inserts a sticker. The store assigns `seq` and sets `version` to 1, whatever the record says.
    ///
    /// - Returns: the stored record (with `seq` and `version`).
    /// - Throws: `StoreError.alreadyExists(.sticker, id:)`, `StoreError.notFound(.board, id:)`,
    ///   or the engine's error for values the schema's CHECKs refuse (a label without `committedAt`).
    @discardableResult
    public func insertSticker(_ sticker: StickerRecord) throws -> StickerRecord {
        try scope(board: sticker.boardId)
        let seq = try mapConstraints([
            .unique: .alreadyExists(.sticker, id: sticker.id),
            .foreignKey: .notFound(.board, id: sticker.boardId),
        ]) {
            try first(Self.insertSticker, sticker.contentValues + [
                .integer(sticker.createdAt), .integer(sticker.updatedAt), sticker.committedAt.sqlValue,
            ]) { $0.int64(at: 0) }
        }
        var stored = sticker
        stored.seq = seq ?? 0
        stored.version = 1
        return stored
    }

    /// Replaces the sticker's content if its stored version is `expectedVersion`
    /// (optimistic concurrency), then increments the version. `createdAt` and `seq` never change.
    ///
    /// - Returns: the stored record, with `version == expectedVersion + 1`.
    /// - Throws: `StoreError.versionConflict` when another update got there first,
    ///   `StoreError.notFound(.sticker, id:)`, `StoreError.labelIsFinal` for label → field.
    @discardableResult
    public func updateSticker(_ sticker: StickerRecord, expectedVersion: Int64) throws -> StickerRecord {
        try scope(board: sticker.boardId)
        let kept = try mapConstraints([.trigger: .labelIsFinal(stickerId: sticker.id)]) {
            try first(Self.updateSticker, sticker.contentValues + [
                .integer(sticker.updatedAt), sticker.committedAt.sqlValue, .integer(expectedVersion),
            ]) { (seq: $0.int64(at: 0), createdAt: $0.int64(at: 1)) }
        }
        guard let kept else {
            throw try missingOrConflict(id: sticker.id, boardId: sticker.boardId, expected: expectedVersion)
        }
        var stored = sticker
        stored.version = expectedVersion + 1
        stored.seq = kept.seq
        stored.createdAt = kept.createdAt
        return stored
    }

    /// Deletes a sticker and its inks. Its events stay: they are history.
    ///
    /// - Parameter expectedVersion: when given, delete only if the stored version matches.
    /// - Returns: false when the board has no such sticker.
    /// - Throws: `StoreError.versionConflict` when `expectedVersion` does not match.
    @discardableResult
    public func deleteSticker(id: String, boardId: String, expectedVersion: Int64? = nil) throws -> Bool {
        try scope(board: boardId)
        if try run(Self.deleteSticker, [.text(id), .text(boardId), expectedVersion.sqlValue]) == 1 { return true }
        guard let expectedVersion else { return false }
        let error = try missingOrConflict(id: id, boardId: boardId, expected: expectedVersion)
        if case .notFound = error { return false }
        throw error
    }

    /// Deletes every sticker of the board (and their inks).
    ///
    /// - Returns: how many stickers were deleted.
    @discardableResult
    public func deleteAllStickers(boardId: String) throws -> Int {
        try scope(board: boardId)
        return try run(Self.deleteAllStickers, [.text(boardId)])
    }

    /// Tells apart "no such sticker" and "someone else's version" after a guarded write changed nothing.
    private func missingOrConflict(id: String, boardId: String, expected: Int64) throws -> StoreError {
        let actual = try first(Self.selectVersion, [.text(id), .text(boardId)]) { $0.int64(at: 0) }
        guard let actual else { return .notFound(.sticker, id: id) }
        return .versionConflict(stickerId: id, expected: expected, actual: actual)
    }
}
