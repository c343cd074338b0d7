extension ReadTransaction {
    private static let selectInks = "SELECT \(InkRecord.columns) FROM inks WHERE sticker_id = $1 ORDER BY seq"
    private static let nextInkSeq = "SELECT coalesce(max(seq), 0) + 1 FROM inks WHERE sticker_id = $1"

    /// The writings that went into the sticker, in the order they were added.
    public func inks(stickerId: String) throws -> [InkRecord] {
        try rows(Self.selectInks, [.text(stickerId)], InkRecord.init(row:))
    }

    /// The `seq` the sticker's next ink should take (1 for the first).
    public func nextInkSeq(stickerId: String) throws -> Int64 {
        try first(Self.nextInkSeq, [.text(stickerId)]) { $0.int64(at: 0) } ?? 1
    }
}
