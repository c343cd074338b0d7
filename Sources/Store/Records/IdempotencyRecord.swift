/// A row of `idempotency_keys`: the stored response to a request made with an idempotency key.
///
/// Meant to be written in the same write transaction as the effect it records, so a replay
/// can never observe the effect without the response (or the reverse).
public struct IdempotencyRecord: Sendable, Hashable {
    /// The scope of the key: the board's id, or an application-chosen scope (such as `""`) for
    /// requests not tied to an existing board (creating one). Not a foreign key.
    public var boardId: String
    /// The client's key (1–255 characters).
    public var key: String
    /// Hash of the request, to detect a key reused for a different request.
    public var requestHash: [UInt8]
    /// HTTP status of the stored response (100–599).
    public var status: Int
    /// The stored response's body bytes, replayed verbatim.
    public var responseBody: [UInt8]
    /// Response headers as JSON produced by the application.
    public var responseHeaders: String
    /// Milliseconds since the Unix epoch (UTC).
    public var createdAt: Int64
    /// After this instant the record is ignored and may be purged or replaced.
    public var expiresAt: Int64

    /// Creates a record; times are milliseconds since the Unix epoch (UTC).
    public init(boardId: String, key: String, requestHash: [UInt8], status: Int, responseBody: [UInt8],
                responseHeaders: String, createdAt: Int64, expiresAt: Int64) {
        self.boardId = boardId
        self.key = key
        self.requestHash = requestHash
        self.status = status
        self.responseBody = responseBody
        self.responseHeaders = responseHeaders
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension IdempotencyRecord {
    static let columns =
        "board_id, key, request_hash, status, response_body, response_headers, created_at, expires_at"

    init(row: any SQLRow) {
        self.init(boardId: row.string(at: 0), key: row.string(at: 1), requestHash: row.blob(at: 2),
                  status: row.int(at: 3), responseBody: row.blob(at: 4), responseHeaders: row.string(at: 5),
                  createdAt: row.int64(at: 6), expiresAt: row.int64(at: 7))
    }
}
