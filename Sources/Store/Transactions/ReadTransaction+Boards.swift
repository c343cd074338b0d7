extension ReadTransaction {
    private static let selectBoard = "SELECT \(BoardRecord.columns) FROM boards WHERE id = $1"

    /// The board with `id`, or nil. In a write transaction, the board stays as read until commit.
    public func board(id: String) throws -> BoardRecord? {
        try scope(board: id)
        return try first(Self.selectBoard, [.text(id)], BoardRecord.init(row:))
    }
}
