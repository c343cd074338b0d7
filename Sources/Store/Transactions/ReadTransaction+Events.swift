extension ReadTransaction {
    private static let selectEvents =
        "SELECT \(EventRecord.columns) FROM events WHERE board_id = $1 AND id > $2 ORDER BY id LIMIT $3"
    // Retention may have deleted every event of a board: then the board's row still knows the last id.
    private static let latestEventId = """
        SELECT coalesce(max(id), 0) FROM (
            SELECT max(id) AS id FROM events WHERE board_id = $1
            UNION ALL SELECT events_purged_through FROM boards WHERE id = $1) AS latest
        """

    /// The board's events after `afterId` (0 for the beginning), oldest first. Events up to the
    /// board's `eventsPurgedThrough` are gone (retention): compare before trusting a gapless read.
    ///
    /// - Parameter limit: 1…`configuration.maxPageSize`.
    public func events(boardId: String, afterId: Int64 = 0, limit: Int) throws -> [EventRecord] {
        try checkLimit(limit)
        try scope(board: boardId)
        return try rows(Self.selectEvents, [.text(boardId), .integer(afterId), .integer(Int64(limit))], EventRecord.init(row:))
    }

    /// The id of the board's newest event, kept or deleted by retention, or 0 when it has had none.
    public func latestEventId(boardId: String) throws -> Int64 {
        try scope(board: boardId)
        return try first(Self.latestEventId, [.text(boardId)]) { $0.int64(at: 0) } ?? 0
    }
}
