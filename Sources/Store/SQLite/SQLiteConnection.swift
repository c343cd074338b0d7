import CSQLite

/// One SQLite database connection.
///
/// Not `Sendable`: a connection must be used by one thread at a time. `Database` guarantees that
/// by confining the writer to a serial queue and handing each reader to one caller at a time.
/// The handle is closed in `deinit` (or earlier by `close()`).
public final class SQLiteConnection {
    /// The path the connection was opened with.
    public let path: String
    /// The most prepared statements kept in the cache; the oldest entry is dropped beyond it.
    public let statementCacheCapacity: Int

    /// The `sqlite3*` handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// Prepared statements by SQL text.
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Cache keys in insertion order, for eviction.
    private var statementCacheOrder: [String] = []

    /// Opens (or creates, with `.create`) the database at `path`.
    ///
    /// - Throws: `SQLiteError` (e.g. `SQLITE_CANTOPEN`) with SQLite's message.
    public init(path: String, flags: SQLiteOpenFlags = [.readWrite, .create, .noMutex],
                statementCacheCapacity: Int = 64) throws {
        self.path = path
        self.statementCacheCapacity = max(1, statementCacheCapacity)
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags.rawValue, nil)
        guard result == SQLITE_OK, let handle else {
            // SQLite usually allocates a handle even when opening fails; it must still be closed.
            let error = SQLiteError(resultCode: result, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: error.extendedCode, message: "\(error.message) (\(path))")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statementCache.removeAll()
        // close_v2 defers the real close until any statement still alive elsewhere is finalized.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Whether `close()` has run.
    public var isClosed: Bool { handle == nil }

    /// Finalizes cached statements and closes the connection. Idempotent.
    ///
    /// Statements prepared with `prepare(_:)` that are still alive keep the underlying handle
    /// open until they are released, but can no longer be used meaningfully.
    public func close() throws {
        guard let handle else { return }
        statementCache.removeAll()
        statementCacheOrder.removeAll()
        self.handle = nil
        let result = sqlite3_close_v2(handle)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: nil, sql: nil)
        }
    }

    /// The open handle, or `SQLITE_MISUSE` when the connection is closed.
    func openHandle(sql: String?) throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedCode: .misuse, message: "connection is closed", sql: sql)
        }
        return handle
    }

    /// Runs one or more `;`-separated statements that take no parameters and return no rows
    /// the caller needs (schema scripts, `PRAGMA`s, `BEGIN`/`COMMIT`).
    public func execute(_ sql: String) throws {
        let handle = try openHandle(sql: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        defer { sqlite3_free(errorMessage) }
        let result = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard result == SQLITE_OK else {
            var error = SQLiteError(resultCode: result, connection: handle, sql: sql)
            if let errorMessage {
                error = SQLiteError(extendedCode: error.extendedCode, message: String(cString: errorMessage), sql: sql)
            }
            throw error
        }
    }

    /// Prepares a new statement owned by the caller (not cached).
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: openHandle(sql: sql), sql: sql, persistent: false)
    }

    /// Returns the cached prepared statement for `sql`, preparing it on first use.
    ///
    /// The statement comes back reset with its bindings cleared. If the cached statement is
    /// still mid-iteration (the same SQL used re-entrantly), a fresh uncached one is returned
    /// instead so the outer iteration is not disturbed.
    public func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] {
            if statement.isBusy { return try prepare(sql) }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try SQLiteStatement(connection: openHandle(sql: sql), sql: sql, persistent: true)
        if statementCacheOrder.count >= statementCacheCapacity {
            let evicted = statementCacheOrder.removeFirst()
            statementCache[evicted] = nil
        }
        statementCache[sql] = statement
        statementCacheOrder.append(sql)
        return statement
    }

    /// Runs `body` with the cached statement for `sql`, then resets it and clears its
    /// bindings so it holds no read lock or bound buffers between uses.
    public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement = try cachedStatement(sql)
        defer {
            statement.reset()
            statement.clearBindings()
        }
        return try body(statement)
    }

    /// The number of statements currently in the cache.
    public var cachedStatementCount: Int { statementCache.count }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE (not counting cascades or triggers).
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// False while an explicit transaction is open.
    public var isAutocommit: Bool {
        guard let handle else { return true }
        return sqlite3_get_autocommit(handle) != 0
    }

    /// How long a statement waits on a lock held by another connection before `SQLITE_BUSY`.
    public func setBusyTimeout(milliseconds: Int) throws {
        let handle = try openHandle(sql: nil)
        let result = sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, connection: handle, sql: nil) }
    }
}

@available(*, unavailable, message: "a connection must be confined to one thread at a time")
extension SQLiteConnection: Sendable {}
