extension WriteTransaction {
    private static let insertBoard = "INSERT INTO boards (id, title, token_hash, created_at) VALUES ($1, $2, $3, $4)"
    private static let deleteBoard = "DELETE FROM boards WHERE id = $1"

    /// Inserts a board, which has lost no events (`eventsPurgedThrough` is not read).
    ///
    /// - Throws: `StoreError.alreadyExists(.board, id:)` for a taken id; the engine's error for
    ///   a token hash that is not 32 bytes or an id outside 1–64 characters.
    public func insertBoard(_ board: BoardRecord) throws {
        try scope(board: board.id)
        try mapConstraints([.primaryKey: .alreadyExists(.board, id: board.id)]) {
            try run(Self.insertBoard, [.text(board.id), .text(board.title), .blob(board.tokenHash), .integer(board.createdAt)])
        }
    }

    /// Deletes a board with its stickers, inks and events (by cascade).
    ///
    /// - Returns: false when there was no such board.
    @discardableResult
    public func deleteBoard(id: String) throws -> Bool {
        try scope(board: id)
        let deleted = try run(Self.deleteBoard, [.text(id)]) > 0
        // Other nodes drop what they keep of the board and end its streams (PostgreSQL; at commit).
        if deleted { try connection.announceEvent(boardId: id) }
        return deleted
    }
}
