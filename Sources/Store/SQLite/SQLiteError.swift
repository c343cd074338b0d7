import CSQLite

/// A failure reported by SQLite, with everything needed to understand it from a log line:
/// the primary and extended result codes, SQLite's message and the SQL being run.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT`).
    public var code: SQLiteResultCode { extendedCode.primary }
    /// The extended result code (`SQLITE_CONSTRAINT_TRIGGER`); equals `code` when SQLite gave no detail.
    public let extendedCode: SQLiteResultCode
    /// SQLite's message (`sqlite3_errmsg`), e.g. `UNIQUE constraint failed: boards.id`.
    public let message: String
    /// The SQL that failed, or nil when the failure was not tied to a statement (opening a file).
    public let sql: String?

    /// Creates an error from explicit parts.
    public init(extendedCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Builds the error for `resultCode` from the connection's error state.
    ///
    /// The connection's extended code is used only when it refines `resultCode`: some calls
    /// (binding, for instance) return a code without updating the connection's error state.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String?) {
        var extended = resultCode
        var message = String(cString: sqlite3_errstr(resultCode))
        if let connection {
            let connectionCode = sqlite3_extended_errcode(connection)
            if connectionCode & 0xFF == resultCode & 0xFF {
                extended = connectionCode
                if let text = sqlite3_errmsg(connection) { message = String(cString: text) }
            }
        }
        self.init(extendedCode: SQLiteResultCode(rawValue: extended), message: message, sql: sql)
    }

    /// `SQLite error SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: boards.id; SQL: INSERT …`
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += "; SQL: \(sql)" }
        return text
    }

    /// True for any constraint failure (CHECK, UNIQUE, FOREIGN KEY, NOT NULL, RAISE in a trigger, …).
    public var isConstraintViolation: Bool { code == .constraint }
}
