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

    // Ids follow time: the oldest event of all is the first that retention deletes.
    private static let oldestEvent = "SELECT board_id, created_at FROM events ORDER BY id LIMIT 1"
    // The board's first events by id, at most $3, up to the first one created at or after $2.
    private static let purgeThrough = """
        WITH first AS (SELECT id, created_at FROM events WHERE board_id = $1 ORDER BY id LIMIT $3)
        SELECT max(id) FROM first
        WHERE id < (SELECT coalesce(min(id), 9223372036854775807) FROM first WHERE created_at >= $2)
        """
    private static let raisePurgedThrough =
        "UPDATE boards SET events_purged_through = $2 WHERE id = $1 AND events_purged_through < $2"
    private static let deleteEventsThrough = "DELETE FROM events WHERE board_id = $1 AND id <= $2"

    /// Retention: deletes the first events, by id, of the board with the oldest event of all,
    /// as long as they were created before `cutoff`, at most `limit` of them. Reads at most
    /// `limit` rows, whatever the size of the table or the board. The board's
    /// `eventsPurgedThrough` is raised to the newest id deleted first, under the board's write
    /// lock, so its latest event id stays where it was and a stream resuming before it learns that
    /// it missed events. Call it until it answers nil or a count of 0. Ids follow commits, times
    /// each writer's clock: an event written by a clock that ran ahead holds back retention, for
    /// every board, until its own time is past the cutoff.
    ///
    /// - Returns: the board and how many of its events went (0 when another node was quicker),
    ///   or nil when the oldest event is not older than `cutoff`.
    public func purgeEvents(createdBefore cutoff: Int64, limit: Int) throws -> (boardId: String, count: Int)? {
        guard let (boardId, createdAt) = try first(Self.oldestEvent, [], { ($0.string(at: 0), $0.int64(at: 1)) }),
              createdAt < cutoff
        else { return nil }
        try scope(board: boardId)
        let limit = Int64(max(1, limit))
        guard let through = try first(Self.purgeThrough, [.text(boardId), .integer(cutoff), .integer(limit)], { $0.optionalInt64(at: 0) }) ?? nil
        else { return (boardId, 0) }
        try run(Self.raisePurgedThrough, [.text(boardId), .integer(through)])
        return (boardId, try run(Self.deleteEventsThrough, [.text(boardId), .integer(through)]))
    }
}
