extension ReadTransaction {
    private static let selectUndo = """
        SELECT \(UndoRecord.columns) FROM gesture_undos WHERE id = $1 AND board_id = $2 AND expires_at > $3
        """

    /// The undo `id` of the board, if it has not expired at `now`.
    public func undo(id: String, boardId: String, now: Int64) throws -> UndoRecord? {
        try scope(board: boardId)
        return try first(Self.selectUndo, [.text(id), .text(boardId), .integer(now)], UndoRecord.init(row:))
    }
}
