import Foundation

/// Moving a deployment between engines: every row of one database into another, empty one.
extension Database {
    /// The tables copied, parents first, with their columns (in both schemas).
    static let copiedTables: [(table: String, columns: [String])] = [
        ("boards", BoardRecord.columns), ("stickers", StickerRecord.columns), ("inks", InkRecord.columns),
        ("events", EventRecord.columns), ("idempotency_keys", IdempotencyRecord.columns),
        ("gesture_undos", UndoRecord.columns),
    ].map { table, columns in
        (table, columns.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    /// Copies every board with its stickers, inks, events, idempotency records and gesture undos into `target`,
    /// keeping ids, sticker sequence numbers and event ids (so cursors and `Last-Event-ID`s that
    /// clients hold stay valid), in one write transaction of `target`: all or nothing. Both
    /// databases must be at the same schema version; `target` must hold no board.
    ///
    /// - Returns: rows copied per table.
    /// - Throws: `StoreError.unsupported` when `target` is not empty or the schema versions
    ///   differ; the engines' errors.
    @discardableResult
    public func copyEverything(to target: Database) throws -> [(table: String, rows: Int)] {
        let sourceVersion = try appliedMigrations().map(\.version).max() ?? 0
        let targetVersion = try target.appliedMigrations().map(\.version).max() ?? 0
        guard sourceVersion == targetVersion else {
            throw StoreError.unsupported("copies between schema versions \(sourceVersion) and \(targetVersion)")
        }
        return try read { source in
            try target.write { destination in
                let existing = try destination.first("SELECT count(*) FROM boards", []) { $0.int64(at: 0) } ?? 0
                guard existing == 0 else { throw StoreError.unsupported("copies into a database that has boards") }
                var copied: [(String, Int)] = []
                for (table, columns) in Self.copiedTables {
                    let list = columns.joined(separator: ", ")
                    let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
                    let insert = "INSERT INTO \(table) (\(list)) VALUES (\(placeholders))"
                    let rows = try source.rows("SELECT \(list) FROM \(table) ORDER BY 1", []) { row in
                        try (0..<columns.count).map { try Self.value(row, at: $0, table: table, column: columns[$0]) }
                    }
                    for values in rows { try destination.run(insert, values) }
                    copied.append((table, rows.count))
                }
                // Identity columns continue after the copied values, and event ids after those that
                // retention deleted too (a board's events_purged_through): a new event must never
                // get an id a stream takes for one already gone.
                let lastEventId = "(SELECT coalesce(max(id), 0) FROM (SELECT max(id) AS id FROM events UNION ALL SELECT max(events_purged_through) FROM boards) AS ids)"
                switch destination.engine {
                case .postgresql:
                    try destination.run("""
                        SELECT setval(pg_get_serial_sequence('stickers', 'seq'), (SELECT coalesce(max(seq), 0) FROM stickers) + 1, false)
                        """, [])
                    try destination.run("SELECT setval(pg_get_serial_sequence('events', 'id'), \(lastEventId) + 1, false)", [])
                case .sqlite:
                    // AUTOINCREMENT follows the largest value inserted; the deleted ones it is told.
                    try destination.run("UPDATE sqlite_sequence SET seq = max(seq, \(lastEventId)) WHERE name = 'events'", [])
                    try destination.run("""
                        INSERT INTO sqlite_sequence (name, seq) SELECT 'events', \(lastEventId)
                        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events')
                        """, [])
                }
                return copied
            }
        }
    }

    /// A column as the value to bind, typed by the engine that stored it.
    private static func value(_ row: any SQLRow, at index: Int, table: String, column: String) throws -> SQLValue {
        if row.isNull(at: index) { return .null }
        switch (table, column) {
        case (_, "token_hash"), (_, "request_hash"), (_, "response_body"), (_, "strokes"):
            return .blob(row.blob(at: index))
        default:
            // Text for everything else: each engine reads numbers from text exactly (SQLite by
            // the column's affinity, PostgreSQL by the column's type).
            if let statement = row as? SQLiteStatement {
                switch statement.columnType(at: index) {
                case .integer: return .integer(statement.int64(at: index))
                case .real: return .real(statement.double(at: index))
                default: return .text(statement.string(at: index))
                }
            }
            return .text(row.string(at: index))
        }
    }
}
