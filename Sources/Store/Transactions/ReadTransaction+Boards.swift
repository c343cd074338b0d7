extension ReadTransaction {
    private static let selectBoard = "SELECT \(BoardRecord.columns) FROM boards WHERE id = ?"

    /// The board with `id`, or nil.
    public func board(id: String) throws -> BoardRecord? {
        try withStatement(Self.selectBoard) { statement in
            try statement.bind(id)
            return try statement.first(BoardRecord.init(row:))
        }
    }
}
