extension WriteTransaction {
    private static let insertEvent = """
        INSERT INTO events (board_id, sticker_id, type, version, payload, created_at)
        VALUES ($1, $2, $3, $4, $5, $6)
        RETURNING id
        """

    /// Appends an event to the board's history and, on PostgreSQL, tells the other nodes at
    /// commit (`NOTIFY`). Ids of one board grow in commit order on both engines: the board's
    /// write lock is held from before the id is drawn until the commit.
    ///
    /// - Parameters:
    ///   - stickerId: nil exactly for `.cleared`.
    ///   - version: the sticker's version after the change; nil exactly for `.cleared`.
    /// - Returns: the stored event with its id.
    /// - Throws: `StoreError.notFound(.board, id:)`, or the engine's error (CHECK) when
    ///   `stickerId`/`version` do not match `type`.
    @discardableResult
    public func appendEvent(boardId: String, stickerId: String?, type: EventRecord.Kind, version: Int64?,
                            payload: String, createdAt: Int64) throws -> EventRecord {
        try scope(board: boardId)
        let id = try mapConstraints([.foreignKey: .notFound(.board, id: boardId)]) {
            try first(Self.insertEvent, [.text(boardId), stickerId.sqlValue, .text(type.rawValue), version.sqlValue,
                                         .text(payload), .integer(createdAt)]) { $0.int64(at: 0) }
        }
        try connection.announceEvent(boardId: boardId)
        return EventRecord(id: id ?? 0, boardId: boardId, stickerId: stickerId, type: type,
                           version: version, payload: payload, createdAt: createdAt)
    }

    private static let boardWithOldEvents = "SELECT board_id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT 1"
    private static let purgeThrough = """
        SELECT max(id) FROM (
            SELECT id FROM events WHERE board_id = $1 AND created_at < $2 ORDER BY id LIMIT $3) AS oldest
        """
    private static let raisePurgedThrough =
        "UPDATE boards SET events_purged_through = $2 WHERE id = $1 AND events_purged_through < $2"
    private static let deleteEventsThrough = "DELETE FROM events WHERE board_id = $1 AND id <= $2"

    /// Retention: deletes the oldest events of one board that has events created before `cutoff`,
    /// at most `limit` of those (with any newer event of a smaller id, a clock's skew between
    /// nodes). The board's `eventsPurgedThrough` is raised to the newest id deleted first, under
    /// the board's write lock, so its latest event id stays where it was and a stream resuming
    /// before it learns that it missed events. Call it until it answers nil.
    ///
    /// - Returns: the board and how many of its events went (0 when another node was quicker),
    ///   or nil when no event is older than `cutoff`.
    public func purgeEvents(createdBefore cutoff: Int64, limit: Int) throws -> (boardId: String, count: Int)? {
        guard let boardId = try first(Self.boardWithOldEvents, [.integer(cutoff)], { $0.string(at: 0) }) else { return nil }
        try scope(board: boardId)
        let limit = Int64(max(1, limit))
        guard let through = try first(Self.purgeThrough, [.text(boardId), .integer(cutoff), .integer(limit)], { $0.optionalInt64(at: 0) }) ?? nil
        else { return (boardId, 0) }
        try run(Self.raisePurgedThrough, [.text(boardId), .integer(through)])
        return (boardId, try run(Self.deleteEventsThrough, [.text(boardId), .integer(through)]))
    }
}
