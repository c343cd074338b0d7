extension ReadTransaction {
    private static let selectEvents =
        "SELECT \(EventRecord.columns) FROM events WHERE board_id = $1 AND id > $2 ORDER BY id LIMIT $3"
    private static let latestEventId = "SELECT coalesce(max(id), 0) FROM events WHERE board_id = $1"

    /// The board's events after `afterId` (0 for the beginning), oldest first.
    ///
    /// - Parameter limit: 1…`configuration.maxPageSize`.
    public func events(boardId: String, afterId: Int64 = 0, limit: Int) throws -> [EventRecord] {
        try checkLimit(limit)
        try scope(board: boardId)
        return try rows(Self.selectEvents, [.text(boardId), .integer(afterId), .integer(Int64(limit))], EventRecord.init(row:))
    }

    /// The id of the board's newest event, or 0 when it has none.
    public func latestEventId(boardId: String) throws -> Int64 {
        try scope(board: boardId)
        return try first(Self.latestEventId, [.text(boardId)]) { $0.int64(at: 0) } ?? 0
    }
}
