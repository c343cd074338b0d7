extension ReadTransaction {
    private static let selectEvents =
        "SELECT \(EventRecord.columns) FROM events WHERE board_id = ? AND id > ? ORDER BY id LIMIT ?"
    private static let latestEventId = "SELECT coalesce(max(id), 0) FROM events WHERE board_id = ?"

    /// The board's events after `afterId` (0 for the beginning), oldest first.
    ///
    /// - Parameter limit: 1…`configuration.maxPageSize`.
    public func events(boardId: String, afterId: Int64 = 0, limit: Int) throws -> [EventRecord] {
        try checkLimit(limit)
        return try withStatement(Self.selectEvents) { statement in
            try statement.bind(boardId, afterId, limit)
            return try statement.map(EventRecord.init(row:))
        }
    }

    /// The id of the board's newest event, or 0 when it has none.
    public func latestEventId(boardId: String) throws -> Int64 {
        try withStatement(Self.latestEventId) { statement in
            try statement.bind(boardId)
            return try statement.first { $0.int64(at: 0) } ?? 0
        }
    }
}
