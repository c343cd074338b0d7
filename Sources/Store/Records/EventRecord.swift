/// A row of `events`: one entry in a board's history, never changed, deleted only from the old
/// end by retention (`WriteTransaction.purgeEvents`).
public struct EventRecord: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case created, updated, committed, deleted
        /// Every sticker of the board was removed at once (no sticker id, no version).
        case cleared
    }

    /// Increasing across the database and never reused; a board's change-feed cursor.
    public var id: Int64
    /// The board whose history this is.
    public var boardId: String
    /// nil exactly for `.cleared`.
    public var stickerId: String?
    /// What happened.
    public var type: Kind
    /// The sticker's version after the change; nil exactly for `.cleared`.
    public var version: Int64?
    /// The application's JSON of the sticker (or of the clear operation).
    public var payload: String
    /// Milliseconds since the Unix epoch (UTC).
    public var createdAt: Int64

    /// Creates a record; `id` is assigned by the store on append.
    public init(id: Int64, boardId: String, stickerId: String?, type: Kind, version: Int64?,
                payload: String, createdAt: Int64) {
        self.id = id
        self.boardId = boardId
        self.stickerId = stickerId
        self.type = type
        self.version = version
        self.payload = payload
        self.createdAt = createdAt
    }
}

extension EventRecord {
    static let columns = "id, board_id, sticker_id, type, version, payload, created_at"

    init(row: any SQLRow) throws {
        let typeText = row.string(at: 3)
        guard let type = Kind(rawValue: typeText) else {
            throw StoreError.corruptValue(table: "events", column: "type", value: typeText)
        }
        self.init(id: row.int64(at: 0), boardId: row.string(at: 1), stickerId: row.optionalString(at: 2),
                  type: type, version: row.optionalInt64(at: 4), payload: row.string(at: 5),
                  createdAt: row.int64(at: 6))
    }
}
