extension WriteTransaction {
    private static let insertInk = "INSERT INTO inks (\(InkRecord.columns)) VALUES (?, ?, ?, ?, ?, ?)"

    /// Records one writing of a sticker.
    ///
    /// - Throws: `StoreError.alreadyExists(.ink, id:)` for a taken id,
    ///   `StoreError.notFound(.sticker, id:)` when the sticker does not exist on `boardId`,
    ///   `SQLiteError` (UNIQUE) when the sticker already has an ink with this `seq`.
    public func insertInk(_ ink: InkRecord) throws {
        try mapConstraints([
            .constraintPrimaryKey: .alreadyExists(.ink, id: ink.id),
            .constraintForeignKey: .notFound(.sticker, id: ink.stickerId),
        ]) {
            try withStatement(Self.insertInk) { statement in
                try statement.bind(ink.id, ink.stickerId, ink.boardId, ink.seq, ink.strokes, ink.createdAt)
                try statement.execute()
            }
        }
    }
}
