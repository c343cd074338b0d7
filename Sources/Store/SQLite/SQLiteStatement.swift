import CSQLite

/// A prepared statement: bind parameters, step through rows, read typed columns.
///
/// Parameter indexes are 1-based (as in SQLite); column indexes are 0-based.
/// The statement is finalized in `deinit`.
public final class SQLiteStatement {
    /// The SQL text, kept for error messages.
    public let sql: String
    /// The `sqlite3_stmt*` handle.
    let handle: OpaquePointer
    /// The owning connection's handle (for error messages).
    let connection: OpaquePointer

    /// Prepares exactly one statement. `persistent` hints SQLite that the statement is cached.
    init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = Self.numberedParameters(sql).withCString { text in
            let outcome = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
            // Anything but whitespace and semicolons after the first statement would be ignored
            // silently by SQLite; refuse it so a script is never half-run.
            if outcome == SQLITE_OK, let tail, !Self.isBlank(tail) {
                return SQLITE_MISUSE
            }
            return outcome
        }
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            if result == SQLITE_MISUSE {
                throw SQLiteError(extendedCode: .misuse,
                                  message: "prepare accepts a single statement; use execute(_:) for scripts",
                                  sql: sql)
            }
            if result == SQLITE_OK {
                throw SQLiteError(extendedCode: .misuse, message: "no SQL statement to prepare", sql: sql)
            }
            throw SQLiteError(resultCode: result, connection: connection, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// The Store writes SQL once for both engines with PostgreSQL's `$1`, `$2`, … parameters;
    /// SQLite reads `$1` as a *named* parameter numbered by first appearance, so they become
    /// `?1`, `?2`, … (bound by number wherever they appear). Quoted text is left alone.
    static func numberedParameters(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "$")) else { return sql }
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count)
        var quote: UInt8?
        let bytes = Array(sql.utf8)
        for (index, byte) in bytes.enumerated() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "$"), index + 1 < bytes.count,
                      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
                out.append(UInt8(ascii: "?"))
                continue
            }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var cursor = text
        while cursor.pointee != 0 {
            switch cursor.pointee {
            case 0x20, 0x09, 0x0A, 0x0D, 0x3B: cursor += 1
            default: return false
            }
        }
        return true
    }

    /// An error for `resultCode` carrying this statement's SQL.
    func error(_ resultCode: Int32) -> SQLiteError {
        SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
    }

    /// Advances to the next row. Returns true when a row is available, false when done.
    ///
    /// - Throws: `SQLiteError` with the statement's SQL (constraint failures surface here).
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw error(result)
        }
    }

    /// Steps until done, for statements whose rows (if any) are not needed.
    public func execute() throws {
        while try step() {}
    }

    /// Calls `body` for each row until done.
    public func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
        while try step() { try body(self) }
    }

    /// Maps every row with `transform`.
    public func map<T>(_ transform: (SQLiteStatement) throws -> T) throws -> [T] {
        var rows: [T] = []
        while try step() { rows.append(try transform(self)) }
        return rows
    }

    /// Steps once and maps the first row, or returns nil when there is none.
    public func first<T>(_ transform: (SQLiteStatement) throws -> T) throws -> T? {
        guard try step() else { return nil }
        return try transform(self)
    }

    /// Rewinds the statement so it can run again (bindings are kept).
    public func reset() { sqlite3_reset(handle) }

    /// Sets every parameter back to NULL.
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// True between the first `step()` and completion or `reset()`.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// True when the statement does not write to the database.
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }
}

@available(*, unavailable, message: "a statement belongs to its connection's thread")
extension SQLiteStatement: Sendable {}
