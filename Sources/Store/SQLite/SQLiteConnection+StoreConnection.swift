import CSQLite

extension SQLiteStatement: SQLRow {}

extension SQLiteConnection: StoreConnection {
    var engine: StoreEngine { .sqlite }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try withStatement(sql) { statement in
            try statement.bind(values)
            try statement.execute()
            return statement.isReadOnly ? 0 : changes
        }
    }

    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try withStatement(sql) { statement in
            try statement.bind(values)
            return try statement.map { try decode($0) }
        }
    }

    func executeScript(_ sql: String) throws { try execute(sql) }

    var isInTransaction: Bool { !isAutocommit }

    func begin(_ sql: String) throws { try run(sql, []) }

    func end(commit: Bool) throws {
        if commit {
            try run("COMMIT", [])
        } else if isInTransaction {
            try run("ROLLBACK", [])
        }
    }

    func lockBoard(_ id: String) throws {}

    func announceEvent(boardId: String) throws {}
}

extension SQLiteStatement {
    /// Binds `values` to `$1`, `$2`, … (`?1`, `?2`, … once prepared).
    func bind(_ values: [SQLValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(extendedCode: .range,
                              message: "statement takes \(parameterCount) parameters, \(values.count) given", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = offset + 1
            switch value {
            case .null: try bindNull(at: index)
            case .integer(let integer): try bind(integer, at: index)
            case .real(let real): try bind(real, at: index)
            case .text(let text): try bind(text, at: index)
            case .blob(let bytes): try bind(bytes, at: index)
            }
        }
    }
}
