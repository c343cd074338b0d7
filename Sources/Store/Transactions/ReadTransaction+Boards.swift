extension ReadTransaction {
    private static let selectBoard = "SELECT \(BoardRecord.columns) FROM boards WHERE id = $1"
    // The board's row knows the last event id retention deleted; its newest kept event is newer.
    private static let selectBoardAndLatestEvent = """
        SELECT \(BoardRecord.columns),
               coalesce((SELECT max(id) FROM events WHERE board_id = $1), 0)
        FROM boards WHERE id = $1
        """

    /// The board with `id`, or nil. In a write transaction, the board stays as read until commit.
    public func board(id: String) throws -> BoardRecord? {
        try scope(board: id)
        return try first(Self.selectBoard, [.text(id)], BoardRecord.init(row:))
    }

    /// The board with `id` and the id of its newest event (as `latestEventId(boardId:)`), in one
    /// statement; nil when there is no such board.
    public func boardAndLatestEvent(id: String) throws -> (board: BoardRecord, latestEventId: Int64)? {
        try scope(board: id)
        return try first(Self.selectBoardAndLatestEvent, [.text(id)]) { row in
            let board = BoardRecord(row: row)
            return (board, max(row.int64(at: BoardRecord.columnCount), board.eventsPurgedThrough))
        }
    }
}
