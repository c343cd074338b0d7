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
}
