extension WriteTransaction {
    private static let insertEvent = """
        INSERT INTO events (board_id, sticker_id, type, version, payload, created_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """

    /// Appends an event to the board's history.
    ///
    /// - Parameters:
    ///   - stickerId: nil exactly for `.cleared`.
    ///   - version: the sticker's version after the change; nil exactly for `.cleared`.
    /// - Returns: the stored event with its id.
    /// - Throws: `StoreError.notFound(.board, id:)`, or `SQLiteError` (CHECK) when
    ///   `stickerId`/`version` do not match `type`.
    @discardableResult
    public func appendEvent(boardId: String, stickerId: String?, type: EventRecord.Kind, version: Int64?,
                            payload: String, createdAt: Int64) throws -> EventRecord {
        try mapConstraints([.constraintForeignKey: .notFound(.board, id: boardId)]) {
            try withStatement(Self.insertEvent) { statement in
                try statement.bind(boardId, stickerId, type.rawValue, version, payload, createdAt)
                try statement.execute()
            }
        }
        return EventRecord(id: connection.lastInsertRowID, boardId: boardId, stickerId: stickerId, type: type,
                           version: version, payload: payload, createdAt: createdAt)
    }
}
