extension ReadTransaction {
    private static let selectRecord = """
        SELECT \(IdempotencyRecord.columns) FROM idempotency_keys
        WHERE board_id = $1 AND key = $2 AND expires_at > $3
        """

    /// The live (not expired at `now`) record for the key, or nil. In a write transaction the
    /// board's lock is taken first, so a retry on another node waits for the first to commit.
    public func idempotencyRecord(boardId: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        try scope(board: boardId)
        return try first(Self.selectRecord, [.text(boardId), .text(key), .integer(now)], IdempotencyRecord.init(row:))
    }
}
