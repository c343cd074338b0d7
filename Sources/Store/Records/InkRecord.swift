/// A row of `inks`: one handwriting submission that went into a sticker.
public struct InkRecord: Sendable, Hashable {
    public var id: String
    public var stickerId: String
    /// Must be the sticker's board (enforced by a composite foreign key).
    public var boardId: String
    /// 1, 2, 3, … within the sticker, in the order the writing was added.
    public var seq: Int64
    /// The application's encoding of the strokes, stored opaquely.
    public var strokes: [UInt8]
    /// Milliseconds since the Unix epoch (UTC).
    public var createdAt: Int64

    public init(id: String, stickerId: String, boardId: String, seq: Int64, strokes: [UInt8], createdAt: Int64) {
        self.id = id
        self.stickerId = stickerId
        self.boardId = boardId
        self.seq = seq
        self.strokes = strokes
        self.createdAt = createdAt
    }
}

extension InkRecord {
    static let columns = "id, sticker_id, board_id, seq, strokes, created_at"

    init(row: SQLiteStatement) {
        self.init(id: row.string(at: 0), stickerId: row.string(at: 1), boardId: row.string(at: 2),
                  seq: row.int64(at: 3), strokes: row.blob(at: 4), createdAt: row.int64(at: 5))
    }
}
