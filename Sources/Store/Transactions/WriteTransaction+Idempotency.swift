extension WriteTransaction {
    // An expired row under the same key is replaced; a live one is left untouched.
    private static let putRecord = """
        INSERT INTO idempotency_keys (\(IdempotencyRecord.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (board_id, key) DO UPDATE SET
            request_hash = excluded.request_hash, status = excluded.status,
            response_body = excluded.response_body, response_headers = excluded.response_headers,
            created_at = excluded.created_at, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= excluded.created_at
        """
    private static let purge = """
        DELETE FROM idempotency_keys WHERE (board_id, key) IN (
            SELECT board_id, key FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2)
        """

    /// Stores the response for a key, unless a live record already holds it.
    ///
    /// A record counts as live while `expiresAt > record.createdAt` of the new one.
    ///
    /// - Returns: true when stored; false when a live record exists (replay that one instead).
    @discardableResult
    public func putIdempotencyRecord(_ record: IdempotencyRecord) throws -> Bool {
        try scope(board: record.boardId)
        return try run(Self.putRecord, [
            .text(record.boardId), .text(record.key), .blob(record.requestHash), .integer(Int64(record.status)),
            .blob(record.responseBody), .text(record.responseHeaders), .integer(record.createdAt), .integer(record.expiresAt),
        ]) == 1
    }

    /// Deletes records expired at `now`, at most `limit` per call (keeps the write short).
    ///
    /// - Returns: how many were deleted; call again while it equals `limit`.
    @discardableResult
    public func purgeExpiredIdempotencyRecords(now: Int64, limit: Int = 10_000) throws -> Int {
        try run(Self.purge, [.integer(now), .integer(Int64(max(0, limit)))])
    }
}
