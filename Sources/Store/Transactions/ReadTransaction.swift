/// A read-only transaction on a consistent snapshot, valid only inside `Database.read`'s body.
///
/// Query methods live in `ReadTransaction+<Concern>.swift`. `WriteTransaction` inherits them,
/// so a write body reads its own uncommitted changes.
public class ReadTransaction {
    let connection: any StoreConnection
    let configuration: DatabaseConfiguration
    private var isFinished = false
    /// Boards whose write lock this transaction holds (write transactions only).
    private var lockedBoards: Set<String> = []

    init(connection: any StoreConnection, configuration: DatabaseConfiguration) {
        self.connection = connection
        self.configuration = configuration
    }

    /// The engine the transaction runs on.
    public var engine: StoreEngine { connection.engine }

    /// Told of each board a write transaction takes in scope, before its first statement about it.
    var onScope: (@Sendable (String) -> Void)?

    /// Whether this transaction may write (and so takes board locks).
    var isWrite: Bool { false }

    /// Runs `body` between `begin` and `COMMIT`; rolls back and rethrows on any error.
    func run<Transaction: ReadTransaction, T>(begin: String, _ body: (Transaction) throws -> T) throws -> T {
        try connection.begin(begin)
        defer { isFinished = true }
        do {
            let result = try body(self as! Transaction)
            try connection.end(commit: true)
            return result
        } catch {
            // A failed COMMIT may already have ended the transaction; only roll back if open.
            if connection.isInTransaction { try? connection.end(commit: false) }
            throw error
        }
    }

    /// Every statement about a board goes through here first: in a write transaction the
    /// board's write lock is taken once (PostgreSQL; SQLite's single writer needs none), so
    /// what the body reads about the board stays true until it commits.
    func scope(board id: String) throws {
        guard !isFinished else { throw StoreError.transactionFinished }
        guard isWrite, !lockedBoards.contains(id) else { return }
        lockedBoards.insert(id)   // before the lock: a transaction whose lock fails has still touched it
        onScope?(id)
        try connection.lockBoard(id)
    }

    /// Rows of `sql` with `values` bound to `$1`, `$2`, …
    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        guard !isFinished else { throw StoreError.transactionFinished }
        return try connection.rows(sql, values, decode)
    }

    /// The first row of `sql`, or nil.
    func first<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> T? {
        try rows(sql, values, decode).first
    }

    /// Runs `sql` and returns the rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        guard !isFinished else { throw StoreError.transactionFinished }
        return try connection.run(sql, values)
    }

    /// Runs `body` with SQLite's cached prepared statement for `sql`: the escape hatch of
    /// tests and diagnostics for SQLite-only SQL (`PRAGMA`, `EXPLAIN QUERY PLAN`).
    ///
    /// - Throws: `StoreError.transactionFinished` when used after the body returned,
    ///   `StoreError.unsupported` on PostgreSQL.
    public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        guard !isFinished else { throw StoreError.transactionFinished }
        guard let sqlite = connection as? SQLiteConnection else { throw StoreError.unsupported("SQLite statements") }
        return try sqlite.withStatement(sql, body)
    }

    /// Runs one statement of either engine with `values` bound to `$1`, `$2`, … and returns its
    /// rows as values: the escape hatch for queries the typed API does not cover. Never build
    /// `sql` from values.
    public func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try rows(sql, values) { row in
            (0..<row.columnCount).map { index in row.isNull(at: index) ? .null : .text(row.string(at: index)) }
        }
    }

    /// Validates a page size against the configured maximum.
    func checkLimit(_ limit: Int) throws {
        guard limit >= 1, limit <= configuration.maxPageSize else {
            throw StoreError.invalidLimit(limit, maximum: configuration.maxPageSize)
        }
    }

    /// The migrations recorded in `schema_migrations`, by version.
    public func appliedMigrations() throws -> [AppliedMigration] {
        guard !isFinished else { throw StoreError.transactionFinished }
        return try MigrationRunner.appliedMigrations(connection)
    }
}

@available(*, unavailable, message: "a transaction is confined to the thread running its body")
extension ReadTransaction: Sendable {}
