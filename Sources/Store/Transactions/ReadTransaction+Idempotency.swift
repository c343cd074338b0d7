extension ReadTransaction {
    private static let selectRecord = """
        SELECT \(IdempotencyRecord.columns) FROM idempotency_keys
        WHERE board_id = ? AND key = ? AND expires_at > ?
        """

    /// The live (not expired at `now`) record for the key, or nil.
    public func idempotencyRecord(boardId: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        try withStatement(Self.selectRecord) { statement in
            try statement.bind(boardId, key, now)
            return try statement.first(IdempotencyRecord.init(row:))
        }
    }
}
