extension WriteTransaction {
    private static let insertInk = "INSERT INTO inks (\(InkRecord.columns)) VALUES ($1, $2, $3, $4, $5, $6)"

    /// Records one writing of a sticker.
    ///
    /// - Throws: `StoreError.alreadyExists(.ink, id:)` for a taken id,
    ///   `StoreError.notFound(.sticker, id:)` when the sticker does not exist on `boardId`,
    ///   the engine's error (UNIQUE) when the sticker already has an ink with this `seq`.
    public func insertInk(_ ink: InkRecord) throws {
        try scope(board: ink.boardId)
        try mapConstraints([
            .primaryKey: .alreadyExists(.ink, id: ink.id),
            .foreignKey: .notFound(.sticker, id: ink.stickerId),
        ]) {
            try run(Self.insertInk, [.text(ink.id), .text(ink.stickerId), .text(ink.boardId), .integer(ink.seq),
                                     .blob(ink.strokes), .integer(ink.createdAt)])
        }
    }
}
