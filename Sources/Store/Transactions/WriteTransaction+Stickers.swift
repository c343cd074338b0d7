extension WriteTransaction {
    private static let insertSticker = """
        INSERT INTO stickers (\(StickerRecord.columns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
                ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, 1, ?31, ?32, ?33, NULL)
        """
    private static let updateSticker = """
        UPDATE stickers SET
            state = ?3, text = ?4, recognized_text = ?5, confidence = ?6, candidates = ?7,
            anchor_x = ?8, anchor_y = ?9, center_x = ?10, center_y = ?11,
            frame_x = ?12, frame_y = ?13, frame_width = ?14, frame_height = ?15,
            font_family = ?16, font_size = ?17, stroke_width = ?18, stroke_color = ?19, fill_color = ?20,
            kerning = ?21, line_height = ?22, alignment = ?23, line_limit = ?24, max_length = ?25,
            charset = ?26, ink_x = ?27, ink_y = ?28, ink_width = ?29, ink_height = ?30,
            version = version + 1, updated_at = ?31, committed_at = ?32
        WHERE id = ?1 AND board_id = ?2 AND version = ?33
        RETURNING seq, created_at
        """
    private static let selectVersion = "SELECT version FROM stickers WHERE id = ? AND board_id = ?"
    private static let deleteSticker =
        "DELETE FROM stickers WHERE id = ?1 AND board_id = ?2 AND (?3 IS NULL OR version = ?3)"
    private static let deleteAllStickers = "DELETE FROM stickers WHERE board_id = ?"

    /// Inserts a sticker. The store assigns `seq` and sets `version` to 1, whatever the record says.
    ///
    /// - Returns: the stored record (with `seq` and `version`).
    /// - Throws: `StoreError.alreadyExists(.sticker, id:)`, `StoreError.notFound(.board, id:)`,
    ///   or `SQLiteError` for values the schema's CHECKs refuse (a label without `committedAt`).
    @discardableResult
    public func insertSticker(_ sticker: StickerRecord) throws -> StickerRecord {
        try mapConstraints([
            .constraintUnique: .alreadyExists(.sticker, id: sticker.id),
            .constraintForeignKey: .notFound(.board, id: sticker.boardId),
        ]) {
            try withStatement(Self.insertSticker) { statement in
                try sticker.bindContent(to: statement, from: 1)
                try statement.bind(sticker.createdAt, at: 31)
                try statement.bind(sticker.updatedAt, at: 32)
                try statement.bind(sticker.committedAt, at: 33)
                try statement.execute()
            }
        }
        var stored = sticker
        stored.seq = connection.lastInsertRowID
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
        let kept = try mapConstraints([.constraintTrigger: .labelIsFinal(stickerId: sticker.id)]) {
            try withStatement(Self.updateSticker) { statement in
                try sticker.bindContent(to: statement, from: 1)
                try statement.bind(sticker.updatedAt, at: 31)
                try statement.bind(sticker.committedAt, at: 32)
                try statement.bind(expectedVersion, at: 33)
                return try statement.first { (seq: $0.int64(at: 0), createdAt: $0.int64(at: 1)) }
            }
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
        try withStatement(Self.deleteSticker) { statement in
            try statement.bind(id, boardId, expectedVersion)
            try statement.execute()
        }
        if changes == 1 { return true }
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
        try withStatement(Self.deleteAllStickers) { statement in
            try statement.bind(boardId)
            try statement.execute()
        }
        return changes
    }

    /// Tells apart "no such sticker" and "someone else's version" after a guarded write changed nothing.
    private func missingOrConflict(id: String, boardId: String, expected: Int64) throws -> StoreError {
        let actual = try withStatement(Self.selectVersion) { statement in
            try statement.bind(id, boardId)
            return try statement.first { $0.int64(at: 0) }
        }
        guard let actual else { return .notFound(.sticker, id: id) }
        return .versionConflict(stickerId: id, expected: expected, actual: actual)
    }
}
