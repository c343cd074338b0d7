extension WriteTransaction {
    private static let insertBoard =
        "INSERT INTO boards (\(BoardRecord.columns)) VALUES (?, ?, ?, ?)"
    private static let deleteBoard = "DELETE FROM boards WHERE id = ?"

    /// Inserts a board.
    ///
    /// - Throws: `StoreError.alreadyExists(.board, id:)` for a taken id; `SQLiteError` for a
    ///   token hash that is not 32 bytes or an id outside 1–64 characters.
    public func insertBoard(_ board: BoardRecord) throws {
        try mapConstraints([.constraintPrimaryKey: .alreadyExists(.board, id: board.id)]) {
            try withStatement(Self.insertBoard) { statement in
                try statement.bind(board.id, board.title, board.tokenHash, board.createdAt)
                try statement.execute()
            }
        }
    }

    /// Deletes a board with its stickers, inks and events (by cascade).
    ///
    /// - Returns: false when there was no such board.
    @discardableResult
    public func deleteBoard(id: String) throws -> Bool {
        try withStatement(Self.deleteBoard) { statement in
            try statement.bind(id)
            try statement.execute()
        }
        return changes > 0
    }
}
